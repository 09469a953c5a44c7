import Foundation
import Testing
import UserBackendKit

@testable import baas

/// `baas doc get` prints a field name that would not read back as itself (ESC, `=`, a
/// leading `"`, edge spaces, invisible characters) as a JSON string, and `doc set` /
/// `doc unset` read a FIELD that starts with `"` as one: every printed name can be given
/// back and names the same field. (`\u{1B}`, the terminal-safe form of other text, would
/// name a field of six other characters.)
@Suite("baas doc: odd field names round-trip", .timeLimit(.minutes(5)))
struct FieldNameRoundTripTests {
  static let oddNames = [
    "a\u{1B}b", "x=y", "\"quoted\"", " lead", "trail ", "tab\there", "zero\u{200B}width",
    "bell\u{7}", "c1\u{9B}", "line\u{2028}sep", "\"", "=",
  ]

  /// The name as `doc get` prints it: its line for the value 1, without `: 1`.
  static func printed(_ name: String) throws -> String {
    let lines = DocumentOutput.lines(UserDocument(userID: "u", fields: [name: .integer(1)]))
    let line = try #require(lines.first)
    try #require(line.hasSuffix(": 1"))
    return String(line.dropLast(3))
  }

  @Test("the printed name reads back as the same name", arguments: oddNames + ["plain", "ümlaut"])
  func printedReadsBack(name: String) throws {
    let printed = try Self.printed(name)
    #expect(TerminalText.safe(printed) == printed, "printed form must be terminal-safe")
    let (fields, _) = try FieldAssignment.parse([printed + "=1"], command: "doc set")
    #expect(Array(fields.keys) == [name], "\(printed)")
  }

  @Test("odd names are quoted as JSON strings, plain ones are not")
  func quoting() throws {
    #expect(try Self.printed("a\u{1B}b") == #""a\u001bb""#)
    #expect(try Self.printed("x=y") == #""x=y""#)
    #expect(try Self.printed("plain") == "plain")
    #expect(try Self.printed("with space") == "with space")
  }

  @Test(
    "a FIELD starting with \" that is not a JSON string is a usage error",
    arguments: [#""a=1"#, #""a\q"=1"#, #""a"b=1"#, #""a""#])
  func badQuotedField(argument: String) {
    #expect(throws: UsageError.self) {
      _ = try FieldAssignment.parse([argument], command: "doc set")
    }
  }

  @Test("doc get prints an ESC name as JSON, and doc set/unset take that form back")
  func endToEnd() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    let set = try await baas.run(["doc", "set", "a\u{1B}b=1", #""x=y"=2"#])
    #expect(set.status == 0, "\(set.allOutput)")
    #expect(set.standardOutput == "\"a\\u001bb\": 1\n\"x=y\": 2\n", "\(set.allOutput)")
    // Each printed line given back as FIELD=VALUE changes the same fields.
    let again = try await baas.run(["doc", "set", #""a\u001bb"=3"#, #""x=y"=4"#])
    #expect(again.standardOutput == "\"a\\u001bb\": 3\n\"x=y\": 4\n", "\(again.allOutput)")
    let unset = try await baas.run(["doc", "unset", #""a\u001bb""#])
    #expect(unset.status == 0, "\(unset.allOutput)")
    #expect(unset.standardOutput == "\"x=y\": 4\n", "\(unset.allOutput)")
    let json = try await baas.run(["doc", "get", "--json"])
    let fields = try #require((try json.json()["document"] as? [String: Any])?["fields"])
    #expect((fields as? [String: Any])?.keys.sorted() == ["x=y"])
  }
}
