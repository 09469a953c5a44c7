import Foundation
import Testing
import UserBackendKit

@testable import UserBackendContracts

/// The typed-value notation of document fields and the checks of the new steps and
/// expectations: each bad input is refused naming where and why.
@Suite(.timeLimit(.minutes(1))) struct DocumentNotationTests {
  private func contract(steps: String) throws -> Contract {
    try ContractLoader.decode(
      Data(
        #"{"name": "c", "description": "d", "variables": {"email": "email"}, "steps": "#
          .utf8 + Data(steps.utf8) + Data("}".utf8)), path: "c.json")
  }

  private func error(steps: String) throws -> ContractLoadError {
    try #require(throws: ContractLoadError.self) { try contract(steps: steps) }
  }

  private func create(_ value: String) -> String {
    #"[{"op": "createDocument", "input": {"fields": {"f": "# + value + "}}}]"
  }

  private func createdValue(_ value: String) throws -> DocumentValue? {
    guard case .createDocument(let input) = try contract(steps: create(value)).steps[0].operation
    else { return nil }
    return input.fields["f"]?.value
  }

  @Test func everyTypeDecodes() throws {
    #expect(try createdValue(#"{"string": "x"}"#) == .string("x"))
    #expect(
      try createdValue(#"{"integer": "9007199254740993"}"#) == .integer(9_007_199_254_740_993))
    #expect(try createdValue(#"{"integer": -42}"#) == .integer(-42))
    // A JSON number beyond 2^53 is read exactly too (as digits, not through a double).
    #expect(try createdValue(#"{"integer": 9007199254740993}"#) == .integer(9_007_199_254_740_993))
    #expect(try createdValue(#"{"double": 0.1}"#) == .double(0.1))
    #expect(try createdValue(#"{"bool": false}"#) == .bool(false))
    #expect(try createdValue(#"{"null": true}"#) == .null)
    #expect(try createdValue(#"{"serverTimestamp": true}"#) == .serverTimestamp)
    #expect(
      try createdValue(#"{"timestamp": "2026-03-04T05:06:07.890Z"}"#)
        == .timestamp(Date(timeIntervalSince1970: 1_772_600_767.890)))
    #expect(
      try createdValue(#"{"array": [{"integer": 1}, {"map": {"k": {"string": "v"}}}]}"#)
        == .array([.integer(1), .map(["k": .string("v")])]))
  }

  /// A large integer survives the runner's variable substitution (a JSON round trip through
  /// doubles) because it is written back as a string.
  @Test func largeIntegersSurviveSubstitution() throws {
    let loaded = try contract(steps: create(#"{"integer": "9007199254740993"}"#))
    let tree = try JSONValue.of(loaded.steps[0]).mapStrings { $0 }
    let again = try JSONDecoder().decode(ContractStep.self, from: JSONEncoder().encode(tree))
    #expect(again == loaded.steps[0])
  }

  @Test(arguments: [
    (#"{"integer": 1.5}"#, "64-bit integer"),
    (#"{"integer": "12x"}"#, "is not a 64-bit integer"),
    (#"{"integer": "99999999999999999999"}"#, "is not a 64-bit integer"),
    (#"{"string": "x", "bool": true}"#, "exactly one of"),
    (#"{}"#, "exactly one of"),
    (#"{"text": "x"}"#, "unknown key \"text\""),
    (#"{"null": false}"#, "only true"),
    (#"{"timestamp": "yesterday"}"#, "not an RFC 3339 timestamp"),
    (#"{"timestamp": "2026-03-04T05:06:07.1234567890Z"}"#, "not an RFC 3339 timestamp"),
    (#"{"array": [{"serverTimestamp": true}]}"#, "not allowed inside an array"),
  ])
  func badValuesAreRefusedNamingTheField(_ value: String, _ message: String) throws {
    let problem = try error(steps: create(value))
    #expect(problem.keyPath.hasPrefix("steps[0].input.fields.f"), "\(problem)")
    #expect(problem.description.contains(message), "\(problem)")
  }

  @Test(arguments: [
    (
      #"[{"op": "getDocument", "expect": {"document": {"created": true}}}]"#,
      "created is known only for createDocument and ensureDocument"
    ),
    (
      #"[{"op": "createDocument", "input": {"fields": {}}, "expect": {"document": {"nil": true}}}]"#,
      "nil is only for getDocument"
    ),
    (
      #"[{"op": "getDocument", "expect": {"document": {"nil": true, "sameUserAs": "a"}}}]"#,
      "nil excludes"
    ),
    (#"[{"op": "signOut", "expect": {"document": {}}}]"#, "a document expectation needs"),
    (#"[{"op": "getDocument", "input": {"user": "nobody"}}]"#, "no earlier step is labelled"),
    (
      #"[{"op": "getDocument", "expect": {"document": {"fields": {"t": {"serverTimestamp": true}}}}}]"#,
      "a read never returns serverTimestamp"
    ),
    (
      #"[{"op": "getDocument", "expect": {"document": {"fields": {"t": {"type": "date"}}}}}]"#,
      "unknown type \"date\""
    ),
    (
      #"[{"op": "getDocument", "expect": {"document": {"fields": {"u": {"userIDOf": "x"}}}}}]"#,
      "no earlier step is labelled \"x\""
    ),
    (#"[{"op": "updateDocument", "input": {}}]"#, "give fields, remove or both"),
    (#"[{"op": "updateProfile", "input": {}}]"#, "give displayName, photoURL or both"),
    (#"[{"op": "reload", "expect": {"user": {"isNewUser": true}}}]"#, "isNewUser is known only"),
    (
      #"[{"op": "concurrent", "input": {"copies": 2, "step": {"op": "ensureDocument"}}, "expect": {"outcomes": {"made": 2}}}]"#,
      "unknown outcome \"made\""
    ),
  ])
  func badStepsAreRefused(_ steps: String, _ message: String) throws {
    let problem = try error(steps: steps)
    #expect(problem.description.contains(message), "\(problem)")
  }

  @Test func timestampsAreComparedToTheMicrosecond() {
    let base = Date(timeIntervalSince1970: 1_772_600_767.890_123)
    #expect(ContractValue.same(.timestamp(base), .timestamp(base.addingTimeInterval(2e-7))))
    #expect(!ContractValue.same(.timestamp(base), .timestamp(base.addingTimeInterval(1e-6))))
    #expect(!ContractValue.same(.integer(1), .double(1)))
    #expect(!ContractValue.same(.map(["a": .null]), .map(["a": .null, "b": .null])))
    #expect(ContractTimestamp.format(base) == "2026-03-04T05:06:07.890123Z")
    #expect(
      ContractTimestamp.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500000Z")
  }
}
