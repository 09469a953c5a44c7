import Foundation
import Testing
import UserBackendKit

@testable import baas

@Suite("baas doc: the FIELD=VALUE notation, JSON and text output", .timeLimit(.minutes(1)))
struct DocumentNotationTests {
  @Test(
    "VALUE reads as @now, @TIMESTAMP, JSON (integer by its written form), else a string",
    arguments: [
      ("@now", DocumentValue.serverTimestamp),
      ("@2026-12-01T09:30:00Z", .timestamp(Date(timeIntervalSince1970: 1_796_117_400))),
      ("@2026-12-01T18:30:00+09:00", .timestamp(Date(timeIntervalSince1970: 1_796_117_400))),
      ("42", .integer(42)), ("-7", .integer(-7)), ("0", .integer(0)),
      ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
      ("9223372036854775808", .double(9_223_372_036_854_775_808)),
      ("2.0", .double(2)), ("1e3", .double(1000)), ("-0.5", .double(-0.5)),
      ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
      ("\"42\"", .string("42")), ("\"@now\"", .string("@now")), (" 42 ", .integer(42)),
      ("[1,\"a\",[]]", .array([.integer(1), .string("a"), .array([])])),
      ("{\"a\":{\"b\":null}}", .map(["a": .map(["b": .null])])),
      ("\"\\ud83d\\ude00\\n\"", .string("😀\n")),
      ("Ada", .string("Ada")), ("", .string("")), ("@alice", .string("@alice")),
      ("01", .string("01")), ("1.", .string("1.")), ("-", .string("-")),
      ("[1,]", .string("[1,]")), ("{\"a\":}", .string("{\"a\":}")), ("tru", .string("tru")),
      ("\"\\ud83d\"", .string("\"\\ud83d\"")), ("nan", .string("nan")),
      ("Infinity", .double(.infinity)), ("-Infinity", .double(-.infinity)),
      ("\"NaN\"", .string("NaN")), ("inf", .string("inf")),
    ])
  func value(text: String, expected: DocumentValue) {
    switch FieldAssignment.value(text) {
    case .value(let value): #expect(value == expected, "\(text)")
    case .notJSON: #expect(DocumentValue.string(text) == expected, "\(text)")
    case .unusable(let reason): Issue.record("\(text): \(reason)")
    }
  }

  @Test(
    "JSON that cannot be stored is refused with the reason",
    arguments: [
      ("1e999", "out of range"), ("{\"k\":1,\"k\":2}", "appears twice"),
      (String(repeating: "[", count: 33) + String(repeating: "]", count: 33), "deeper"),
    ])
  func unusable(text: String, reason: String) {
    guard case .unusable(let message) = FieldAssignment.value(text) else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(message.contains(reason))
    let nested = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(FieldAssignment.value(nested) != .notJSON)
  }

  @Test(
    "bad arguments are usage errors naming the argument or the field",
    arguments: [
      ([String](), "at least one FIELD=VALUE"), (["=x"], "argument 1"),
      (["a=1", "=x"], "argument 2"), (["a=1", "b"], "argument 2"),
      (["a=1", "a=2"], "field a is given twice"), (["a={\"k\":1,\"k\":2}"], "field a:"),
      (["\u{1B}[31m=1", "\u{1B}[31m=2"], "field \\u{1B}[31m is given twice"),
    ])
  func badArguments(arguments: [String], message: String) {
    #expect {
      _ = try FieldAssignment.parse(arguments, command: "doc set")
    } throws: { error in
      (error as? UsageError)?.message.contains(message) == true
    }
  }

  @Test("several fields, an empty VALUE, '=' inside a VALUE; a JSON-looking string is noted")
  func parseFields() throws {
    let (fields, notes) = try FieldAssignment.parse(
      ["name=Ada", "empty=", "eq=a=b", "when=@now", "broken={\"a\":"], command: "doc set")
    #expect(
      fields == [
        "name": .string("Ada"), "empty": .string(""), "eq": .string("a=b"),
        "when": .serverTimestamp, "broken": .string("{\"a\":"),
      ])
    #expect(notes.count == 1)
    #expect(notes.first?.contains("broken") == true)
  }

  @Test("--json values: integers, doubles with a fraction, timestamps as RFC 3339 strings")
  func jsonValues() throws {
    let date = Date(timeIntervalSince1970: 1_764_555_256.5)
    let document = UserDocument(
      userID: "u1",
      fields: [
        "i": .integer(42), "d": .double(2), "big": .double(1e300), "nan": .double(.nan),
        "inf": .double(-.infinity), "s": .string("a\"b\\c\n\u{1B}[2J\u{9B}\u{202E}/"),
        "t": .timestamp(date), "n": .null, "b": .bool(false),
        "a": .array([.integer(1), .map(["z": .integer(1), "y": .integer(2)])]),
      ], createTime: date, updateTime: nil)
    let json = DocumentOutput.json(document)
    #expect(json.contains("\"i\":42,"))
    #expect(json.contains("\"d\":2.0,"))
    #expect(json.contains("\"big\":1e+300,"))
    #expect(json.contains("\"nan\":\"NaN\""))
    #expect(json.contains("\"inf\":\"-Infinity\""))
    #expect(json.contains("\"t\":\"2025-12-01T02:14:16.500Z\""))
    #expect(json.contains("{\"y\":2,\"z\":1}"), "map keys sorted")
    #expect(json.contains(#""s":"a\"b\\c\n\u001b[2J\u009b\u202e/""#), "\(json)")
    #expect(!json.unicodeScalars.contains { TerminalText.needsEscape($0) })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let inner = try #require(object["document"] as? [String: Any])
    #expect(Set(inner.keys) == ["fields", "createTime", "updateTime"])
    #expect(inner["createTime"] as? String == "2025-12-01T02:14:16.500Z")
    #expect(inner["updateTime"] is NSNull)
    let fields = try #require(inner["fields"] as? [String: Any])
    #expect(fields["s"] as? String == "a\"b\\c\n\u{1B}[2J\u{9B}\u{202E}/")
    #expect(DocumentOutput.json(nil) == "{\"document\":null}")
  }

  @Test("text lines are sorted, terminal-safe, and read back by doc set to the same value")
  func textRoundTrip() throws {
    let values: [DocumentValue] = [
      .string("Ada"), .string("42"), .string(""), .string("@now"), .string("@alice"),
      .string(" padded"), .string("true"), .string("two\nlines"), .string("null"),
      .string("[x"), .integer(-5), .double(2), .double(0.1), .double(-0.0), .bool(true),
      .null, .array([.integer(1), .string("a")]), .map(["k": .bool(false)]),
      .timestamp(Date(timeIntervalSince1970: 1_764_555_256.125)),
      .double(.infinity), .double(-.infinity), .string("NaN"), .string("Infinity"),
      .string("-Infinity"),
    ]
    /// What `doc set` stores for `text`.
    func read(_ text: String) -> DocumentValue? {
      switch FieldAssignment.value(text) {
      case .value(let value): value
      case .notJSON: .string(text)
      case .unusable: nil
      }
    }
    for value in values {
      let text = DocumentOutput.text(value)
      #expect(read(text) == value, "\(text)")
    }
    // NaN is not equal to itself: the double NaN reads back as a double NaN, not a string.
    guard case .double(let nan) = read(DocumentOutput.text(.double(.nan))), nan.isNaN else {
      Issue.record("a double NaN does not read back as one")
      return
    }
    #expect(DocumentOutput.text(.string("NaN")) == "\"NaN\"")
    #expect(DocumentOutput.text(.string("Ada")) == "Ada")
    #expect(DocumentOutput.text(.string("42")) == "\"42\"")
    #expect(DocumentOutput.text(.string("")) == "\"\"")
    let micro = Date(timeIntervalSince1970: 1_764_555_256.123456)
    #expect(DocumentOutput.text(.timestamp(micro)) == "@2025-12-01T02:14:16.123456Z")
    guard case .timestamp(let parsed) = read(DocumentOutput.text(.timestamp(micro))) else {
      Issue.record("a microsecond timestamp does not read back")
      return
    }
    #expect(abs(parsed.timeIntervalSince(micro)) < 0.000_001)

    let document = UserDocument(
      userID: "u", fields: ["b": .integer(1), "a\u{1B}": .string("x\u{1B}]0;t\u{07}")])
    // An odd name prints as a JSON string, the form doc set reads back (FieldName).
    #expect(DocumentOutput.lines(document) == ["\"a\\u001b\": \"x\\u001b]0;t\\u0007\"", "b: 1"])
    #expect(DocumentOutput.lines(UserDocument(userID: "u", fields: [:])) == ["(no fields)"])
    #expect(DocumentOutput.lines(nil) == ["No document."])
  }

  @Test("timestamps print as RFC 3339 UTC with milliseconds, or microseconds when present")
  func timestampFormat() {
    #expect(Timestamp.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(Timestamp.string(Date(timeIntervalSince1970: 1.5)) == "1970-01-01T00:00:01.500Z")
    #expect(
      Timestamp.string(Date(timeIntervalSince1970: 0.000_001)) == "1970-01-01T00:00:00.000001Z")
    #expect(Timestamp.string(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    #expect(Timestamp.parse("1970-01-01t00:00:01.5z") == Date(timeIntervalSince1970: 1.5))
    // Digits past the sixth are cut, as Firestore does.
    #expect(
      Timestamp.parse("1970-01-01T00:00:01.1234567890Z")
        == Timestamp.parse("1970-01-01T00:00:01.123456Z"))
    // The range's ends, proleptic Gregorian (not Foundation's Julian calendar before 1582),
    // read and print back unchanged.
    for edge in ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999999Z"] {
      #expect(Timestamp.parse(edge).map(Timestamp.string) == edge)
    }
    for bad in [
      "2026-12-01", "2026-12-01T24:00:00Z", "2026-13-01T00:00:00Z", "2026-12-01T00:00:00",
      "2026-12-01T00:00:00.Z", "2026-12-01T00:00:00+9:00", "10000-01-01T00:00:00Z",
      "2026-12-01T00:00:00Z ", "２０２６-12-01T00:00:00Z",
    ] {
      #expect(Timestamp.parse(bad) == nil, "\(bad)")
    }
  }
}
