import Foundation
import Testing
import UserBackendContracts

@Suite(.timeLimit(.minutes(2))) struct ContractVariablesTests {
  @Test func substitutesWithFilters() throws {
    let values = ["email": "u-ab@example.com"]
    #expect(try ContractVariables.substitute("  {{email|upper}} ", values) == "  U-AB@EXAMPLE.COM ")
    #expect(
      try ContractVariables.substitute("{{ email }}/{{email|lower}}", values)
        == "u-ab@example.com/u-ab@example.com")
    #expect(try ContractVariables.substitute("plain", values) == "plain")
  }

  @Test func reportsUndefinedVariablesAndFilters() {
    #expect(throws: ContractVariables.SubstitutionError.undefined("other")) {
      try ContractVariables.substitute("{{other}}", [:])
    }
    #expect(throws: ContractVariables.SubstitutionError.unknownFilter("title")) {
      try ContractVariables.substitute("{{email|title}}", ["email": "x"])
    }
    #expect(throws: ContractVariables.SubstitutionError.unterminated) {
      try ContractVariables.substitute("{{email", ["email": "x"])
    }
  }

  @Test func proposalsHaveTheirKindsShapeAndDifferPerRun() {
    let contract = Contract(
      name: "v", description: "d",
      variables: ["email": .email, "user": .username, "phone": .phoneNumber, "sub": .identifier],
      steps: [ContractStep(.signOut)])
    let first = ContractVariables.propose(for: contract)
    let second = ContractVariables.propose(for: contract)
    #expect(first["email"]?.wholeMatch(of: /u-[0-9a-f]{12}@example\.com/) != nil)
    #expect(first["user"]?.wholeMatch(of: /user-[0-9a-f]{12}/) != nil)
    #expect(first["phone"]?.wholeMatch(of: /\+1555[0-9]{7}/) != nil)
    #expect(first["sub"]?.wholeMatch(of: /v-[0-9a-f]{16}/) != nil)
    #expect(first["email"] != second["email"])
  }
}
