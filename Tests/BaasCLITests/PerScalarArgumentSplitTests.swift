import Testing
import UserBackendKit

@testable import baas

/// `FIELD=VALUE` and `--option=value` split at the first `=` per code point: an `=`
/// followed by a combining mark (one Swift `Character`) is still the separator, so FIELD
/// is the text before the first `=` as the README says.
@Suite("Argument splits per code point", .timeLimit(.minutes(1)))
struct PerScalarArgumentSplitTests {
  @Test("FIELD=VALUE with a combining mark after the =")
  func fieldAssignment() throws {
    let parsed = try FieldAssignment.parse(["a=\u{301}b=1", "c=\u{301}"], command: "doc set")
    // FIELD is the text before the first "=": exactly "a" and "c", in their code points.
    #expect(Set(parsed.fields.keys.map { Array($0.unicodeScalars) }) == [["a"], ["c"]])
    guard case .string(let value) = parsed.fields["a"] else {
      Issue.record("\(parsed.fields)")
      return
    }
    #expect(Array(value.unicodeScalars) == Array("\u{301}b=1".unicodeScalars))
    guard case .string(let other) = parsed.fields["c"] else {
      Issue.record("\(parsed.fields)")
      return
    }
    #expect(Array(other.unicodeScalars) == ["\u{301}"])
  }

  @Test("--option=value and a global --backend=value with a combining mark after the =")
  func options() throws {
    let parsed = try ParsedOptions.parse(
      ["--email=\u{301}x"], spec: OptionSpec(valued: ["email"]), command: "signin")
    #expect(parsed.value("email").map { Array($0.unicodeScalars) } == ["\u{301}", "x"])
    let global = try GlobalArguments.parse(["--backend=\u{301}fake", "doc"])
    #expect(global.backend.map { Array($0.unicodeScalars) } == Array("\u{301}fake".unicodeScalars))
  }
}
