import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// NCMB keeps milliseconds: a timestamp in the last half millisecond of 9999 is written as
/// the last millisecond, never rounded into year 10000 (which NCMB refuses, E400002).
@Suite("NCMB Date: milliseconds never leave 0001…9999", .timeLimit(.minutes(1)))
struct NCMBDateRangeEdgeTests {
  @Test(
    "the ends of the range",
    arguments: [
      ("9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.999Z"),
      ("9999-12-31T23:59:59.9995Z", "9999-12-31T23:59:59.999Z"),
      ("9999-12-31T23:59:59.9994Z", "9999-12-31T23:59:59.999Z"),
      ("0001-01-01T00:00:00.0004Z", "0001-01-01T00:00:00.000Z"),
      ("2026-12-01T09:30:00.0005Z", "2026-12-01T09:30:00.001Z"),
    ])
  func edges(text: String, expected: String) throws {
    let date = try #require(DocumentTimestamp.parse(text))
    #expect(NCMBDocumentCoding.dateJSON(date) == #"{"__type":"Date","iso":"\#(expected)"}"#)
  }
}
