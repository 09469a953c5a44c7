import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// The typed-value JSON of Firestore documents, both ways.
@Suite("Firestore value encoding", .timeLimit(.minutes(1)))
struct FirestoreValueCodingTests {
  private func encode(_ value: DocumentValue) throws -> String {
    String(decoding: try FirestoreDocumentStore.encode(FirestoreValue(value)), as: UTF8.self)
  }

  private func decode(_ json: String) throws -> DocumentValue {
    try JSONDecoder().decode(FirestoreValue.self, from: Data(json.utf8)).value
  }

  /// 2026-11-30T12:00:00.123456Z
  static let instant = Date(timeIntervalSince1970: 1_796_040_000.123456)

  @Test(
    "Each type has its documented wire form and reads back equal",
    arguments: [
      (DocumentValue.string("héllo \"x\"/"), #"{"stringValue":"héllo \"x\"/"}"#),
      (.integer(42), #"{"integerValue":"42"}"#),
      (.integer(.max), #"{"integerValue":"9223372036854775807"}"#),
      (.integer(.min), #"{"integerValue":"-9223372036854775808"}"#),
      (.double(1.5), #"{"doubleValue":1.5}"#),
      (.double(-0.25), #"{"doubleValue":-0.25}"#),
      (.double(1e300), #"{"doubleValue":1e+300}"#),
      (.double(.infinity), #"{"doubleValue":"Infinity"}"#),
      (.double(-.infinity), #"{"doubleValue":"-Infinity"}"#),
      (.bool(true), #"{"booleanValue":true}"#),
      (.bool(false), #"{"booleanValue":false}"#),
      (.null, #"{"nullValue":null}"#),
      (.timestamp(instant), #"{"timestampValue":"2026-11-30T12:00:00.123456Z"}"#),
      (.array([]), #"{"arrayValue":{}}"#),
      (.map([:]), #"{"mapValue":{}}"#),
      (
        .array([.integer(1), .string("a"), .array([.null])]),
        #"{"arrayValue":{"values":[{"integerValue":"1"},{"stringValue":"a"},{"arrayValue":{"values":[{"nullValue":null}]}}]}}"#
      ),
      (
        .map(["b": .map(["c": .bool(true)]), "a": .double(2)]),
        #"{"mapValue":{"fields":{"a":{"doubleValue":2},"b":{"mapValue":{"fields":{"c":{"booleanValue":true}}}}}}}"#
      ),
    ])
  func roundTrip(value: DocumentValue, json: String) throws {
    #expect(try encode(value) == json)
    let decoded = try decode(json)
    if case .timestamp(let date) = value, case .timestamp(let read) = decoded {
      #expect(abs(read.timeIntervalSince(date)) < 0.000_001)
      #expect(try encode(decoded) == json)
    } else {
      #expect(decoded == value)
    }
  }

  @Test("NaN is written as \"NaN\" and reads back as NaN")
  func nan() throws {
    #expect(try encode(.double(.nan)) == #"{"doubleValue":"NaN"}"#)
    guard case .double(let number) = try decode(#"{"doubleValue":"NaN"}"#) else {
      Issue.record("not a double")
      return
    }
    #expect(number.isNaN)
  }

  @Test("Timestamps are written in UTC with microseconds, whatever the fraction")
  func timestamps() throws {
    #expect(
      try encode(.timestamp(Date(timeIntervalSince1970: 0)))
        == #"{"timestampValue":"1970-01-01T00:00:00.000000Z"}"#)
    #expect(
      try encode(.timestamp(Date(timeIntervalSince1970: 1_796_040_000.5)))
        == #"{"timestampValue":"2026-11-30T12:00:00.500000Z"}"#)
    // Firestore answers with up to nanoseconds and any offset.
    let read = try decode(#"{"timestampValue":"2026-11-30T21:00:00.123456789+09:00"}"#)
    #expect(try encode(read) == #"{"timestampValue":"2026-11-30T12:00:00.123456Z"}"#)
  }

  @Test("Lenient forms proto3 JSON allows: integer as a number, double as a string")
  func lenient() throws {
    #expect(try decode(#"{"integerValue":7}"#) == .integer(7))
    #expect(try decode(#"{"doubleValue":"2.5"}"#) == .double(2.5))
    #expect(try decode(#"{"doubleValue":3}"#) == .double(3))
    #expect(try decode(#"{"mapValue":{"fields":{}}}"#) == .map([:]))
    #expect(try decode(#"{"arrayValue":{"values":[]}}"#) == .array([]))
  }

  @Test(
    "a double in a string is JSON number notation or NaN / Infinity / -Infinity",
    arguments: [("-1.5e3", -1500.0), ("0.25", 0.25), ("1E-2", 0.01), ("7", 7)])
  func doubleText(text: String, value: Double) throws {
    #expect(try decode(#"{"doubleValue":"\#(text)"}"#) == .double(value))
  }

  @Test(
    "a double string Double(_:) would read otherwise is refused",
    arguments: [
      "0x10", "0x1p4", "+5", ".5", "5.", "inf", "-inf", "infinity", "nan", "nan(1)",
      " 5", "5 ", "1e400", "", "٥",
    ])
  func doubleTextRefused(text: String) {
    #expect(throws: DecodingError.self, "\(text)") {
      try decode(#"{"doubleValue":"\#(text)"}"#)
    }
  }

  @Test("Types without a portable case: geoPoint as a map, reference and bytes as strings")
  func otherTypes() throws {
    #expect(
      try decode(#"{"geoPointValue":{"latitude":35.5,"longitude":139.25}}"#)
        == .map(["latitude": .double(35.5), "longitude": .double(139.25)]))
    #expect(
      try decode(#"{"referenceValue":"projects/p/databases/(default)/documents/users/u"}"#)
        == .string("projects/p/databases/(default)/documents/users/u"))
    #expect(try decode(#"{"bytesValue":"AAEC"}"#) == .string("AAEC"))
  }

  @Test(
    "Field path segments are quoted when they are not simple names",
    arguments: [
      ("display_name", "display_name"), ("_a1", "_a1"), ("A", "A"), ("1a", "`1a`"),
      ("a.b", "`a.b`"), ("a b", "`a b`"), ("x`y", "`x\\`y`"), ("back\\slash", "`back\\\\slash`"),
      ("héllo", "`héllo`"), ("a-b", "`a-b`"),
    ])
  func fieldPaths(name: String, segment: String) {
    #expect(FirestoreFieldPath.segment(name) == segment)
  }

  @Test(
    "A backslash or backtick followed by a combining mark is escaped per code point",
    arguments: [
      ("a\\\u{301}", "`a\\\\\u{301}`"), ("x`\u{301}y", "`x\\`\u{301}y`"),
      ("\\\u{301}\u{302}`", "`\\\\\u{301}\u{302}\\``"),
    ])
  func fieldPathEscapesPerScalar(name: String, segment: String) {
    // Strings compare by canonical equivalence; the wire is code points, so compare those.
    #expect(Array(FirestoreFieldPath.segment(name).unicodeScalars) == Array(segment.unicodeScalars))
  }

  @Test("Server timestamps are split out of maps into transform paths and put back")
  func split() {
    let (values, paths) = FirestoreFieldPath.split([
      "a": .serverTimestamp, "m": .map(["t": .serverTimestamp, "k": .integer(1)]),
      "s": .string("x"),
    ])
    #expect(values == ["m": .map(["k": .integer(1)]), "s": .string("x")])
    #expect(paths == [["a"], ["m", "t"]])
    #expect(FirestoreFieldPath.path(["m", "a.b"]) == "m.`a.b`")
    var fields = values
    let now = DocumentValue.timestamp(Date(timeIntervalSince1970: 1))
    for path in paths { FirestoreFieldPath.insert(now, at: path[...], into: &fields) }
    #expect(fields == ["a": now, "m": .map(["k": .integer(1), "t": now]), "s": .string("x")])
  }
}
