import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// NCMB's JSON form of document values, both ways.
@Suite("NCMB document value encoding", .timeLimit(.minutes(1)))
struct NCMBDocumentCodingTests {
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  private func read(_ json: String) throws -> DocumentValue {
    let object =
      try JSONSerialization.jsonObject(
        with: Data(#"{"v":\#(json)}"#.utf8)) as? [String: Any]
    return try NCMBDocumentCoding.value(object?["v"] as Any, field: "v")
  }

  @Test(
    "Each type has its wire form and reads back equal",
    arguments: [
      (DocumentValue.string("a\"b/c"), #""a\"b/c""#), (.integer(42), "42"),
      (.integer(.max), "9223372036854775807"), (.integer(.min), "-9223372036854775808"),
      (.integer(0), "0"), (.double(2), "2.0"), (.double(1.5), "1.5"), (.double(-0.25), "-0.25"),
      (.double(1e300), "1e+300"), (.bool(true), "true"), (.bool(false), "false"),
      (.null, "null"),
      (
        .timestamp(Date(timeIntervalSince1970: 1_767_225_600.123)),
        #"{"__type":"Date","iso":"2026-01-01T00:00:00.123Z"}"#
      ),
      (.array([]), "[]"), (.map([:]), "{}"),
      (
        .map(["b": .array([.integer(1), .bool(true)]), "a": .map(["c": .null])]),
        #"{"a":{"c":null},"b":[1,true]}"#
      ),
    ])
  func roundTrip(value: DocumentValue, json: String) throws {
    #expect(NCMBDocumentCoding.json(value, now: Self.now) == json)
    let decoded = try read(json)
    if case .timestamp(let date) = value, case .timestamp(let back) = decoded {
      #expect(abs(back.timeIntervalSince(date)) < 0.001)
    } else {
      #expect(decoded == value)
    }
  }

  @Test("A server timestamp is the client's clock, as an NCMB Date with milliseconds")
  func serverTimestamp() {
    #expect(
      NCMBDocumentCoding.json(.serverTimestamp, now: Self.now)
        == #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#)
  }

  @Test("Other typed objects read as maps of their members")
  func otherTypes() throws {
    #expect(
      try read(#"{"__type":"GeoPoint","latitude":35.5,"longitude":139.25}"#)
        == .map([
          "__type": .string("GeoPoint"), "latitude": .double(35.5), "longitude": .double(139.25),
        ]))
  }
}
