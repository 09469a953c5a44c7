import Foundation
import Testing

@testable import BackendEmulator

/// ``JSONBoolean``, the one rule for JSON booleans in the emulator: a JSON `true`/`false`
/// is a boolean, a number (`1`, `0`) never is, even where Foundation on Linux casts it to
/// `Bool`; and a boolean is not a number.
@Suite("JSONBoolean: the emulator's one rule for JSON booleans", .timeLimit(.minutes(1)))
struct JSONBooleanUnitTests {
  /// The value `JSONSerialization` reads for `text` inside an array.
  static func decoded(_ text: String) throws -> Any {
    let array = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Any]
    return try #require(array?.first)
  }

  @Test func theRuleReadsOnlyJSONTrueAndFalseAsBooleans() throws {
    #expect(JSONBoolean.value(try Self.decoded("true")) == true)
    #expect(JSONBoolean.value(try Self.decoded("false")) == false)
    #expect(JSONBoolean.value(true) == true)
    for number in ["1", "0", "1.0", "2"] {
      #expect(JSONBoolean.value(try Self.decoded(number)) == nil, "\(number)")
      #expect(JSONBoolean.isNumber(try Self.decoded(number)), "\(number)")
    }
    #expect(JSONBoolean.value(try Self.decoded(#""true""#)) == nil)
    #expect(!JSONBoolean.isNumber(try Self.decoded("true")))
    #expect(!JSONBoolean.isNumber(try Self.decoded(#""1""#)))
    #expect(WireObject(["f": try Self.decoded("1")]).bool("f") == nil)
    #expect(WireObject(["f": try Self.decoded("true")]).bool("f") == true)
    #expect(WireObject(["f": "false"]).bool("f") == false)
  }
}
