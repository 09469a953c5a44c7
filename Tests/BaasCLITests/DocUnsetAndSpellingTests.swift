import Foundation
import Testing
import UserBackendKit

@testable import baas

/// `baas doc unset` removes fields (also one whose name `doc set` now refuses, stored by
/// an older version), and `doc set` refuses two names that are the same text in other
/// bytes instead of keeping one of them.
@Suite("baas doc unset; names in other bytes", .timeLimit(.minutes(5)))
struct DocUnsetAndSpellingTests {
  @Test(
    "FIELD names equal but for their bytes are a usage error showing both",
    arguments: [
      ["caf\u{E9}=1", "cafe\u{301}=2"], ["m={\"caf\u{E9}\":1,\"cafe\u{301}\":2}"],
    ])
  func equivalentNames(arguments: [String]) {
    #expect {
      _ = try FieldAssignment.parse(arguments, command: "doc set")
    } throws: { error in
      let message = (error as? UsageError)?.message ?? ""
      return message.contains("U+00E9") && message.contains("U+0065 U+0301")
    }
  }

  @Test("doc unset removes fields, keeps the others, and leaves a missing document missing")
  func unset() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    let missing = try await baas.run(["doc", "unset", "a"])
    #expect(missing.status == 0, "\(missing.allOutput)")
    #expect(missing.standardOutput == "No document.\n")
    #expect(try await baas.run(["doc", "get"]).standardOutput == "No document.\n")
    #expect(try await baas.run(["doc", "set", "a=1", "b=2", "c=3"]).status == 0)
    let unset = try await baas.run(["doc", "unset", "a", "c", "absent"])
    #expect(unset.status == 0, "\(unset.allOutput)")
    #expect(unset.standardOutput == "b: 2\n")
    let empty = try await baas.run(["doc", "unset", ""])
    #expect(empty.status != 0)
    #expect(empty.standardError.contains("empty"), "\(empty.allOutput)")
  }
}
