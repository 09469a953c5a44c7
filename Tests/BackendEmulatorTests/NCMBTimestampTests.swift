import Foundation
import Testing

@testable import BackendEmulator

@Suite("NCMBTimestamp", .timeLimit(.minutes(2)))
struct NCMBTimestampTests {
  @Test(
    "ISO 8601 variants parse to the same instant",
    arguments: [
      ("2013-12-02T02:44:35.452Z", 1_385_952_275.452),
      ("2013-12-02T02%3A44%3A35.452Z", 1_385_952_275.452),
      ("2013-12-02T02:44:35Z", 1_385_952_275),
      ("2013-12-02T02:44:35", 1_385_952_275),
      ("2013-12-02T11:44:35.452+09:00", 1_385_952_275.452),
      ("2013-12-01T21:44:35.452-0500", 1_385_952_275.452),
      ("2013-12-02T02:44:35.452123456Z", 1_385_952_275.452123456),
    ])
  func parses(text: String, seconds: Double) throws {
    let date = try #require(NCMBTimestamp.parse(text))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_01)
  }

  @Test(
    "malformed timestamps are rejected",
    arguments: [
      "", "2013-12-02", "2013-12-02 02:44:35Z", "2013-13-02T02:44:35Z", "2013-02-30T02:44:35Z",
      "2013-12-02T25:44:35Z", "2013-12-02T02:44:35.Z", "2013-12-02T02:44:35.452ZZ",
      "2013-12-02T02:44:35+9", "x013-12-02T02:44:35Z",
    ])
  func rejects(text: String) {
    #expect(NCMBTimestamp.parse(text) == nil)
  }
}
