import Foundation
import Testing
import UserBackendKit

/// `DocumentTimestamp` never traps on any `Int64` or `Double`, and its checked readers
/// refuse what lies outside 0001-01-01…9999-12-31.
@Suite("DocumentTimestamp: any number in, no trap out", .timeLimit(.minutes(1)))
struct DocumentTimestampRangeTests {
  static let extremes: [Int64] = [
    .min, .min + 1, -9_223_372_036_854_775_000, .min + 978_307_200_000_000 - 1, .max,
  ]

  @Test("date(microseconds:) takes every Int64 without trapping", arguments: extremes)
  func unchecked(micros: Int64) {
    let date = DocumentTimestamp.date(microseconds: micros)
    #expect(date.timeIntervalSince1970.isFinite)
    #expect(DocumentTimestamp.microseconds(of: date) == nil)
  }

  @Test("checkedDate(microseconds:) is nil outside 0001…9999, exact at its edges")
  func checkedMicroseconds() {
    for micros in Self.extremes {
      #expect(DocumentTimestamp.checkedDate(microseconds: micros) == nil)
    }
    let earliest = -62_135_596_800 * 1_000_000 as Int64
    let latest = 253_402_300_799 * 1_000_000 + 999_999 as Int64
    #expect(DocumentTimestamp.checkedDate(microseconds: earliest - 1) == nil)
    #expect(DocumentTimestamp.checkedDate(microseconds: latest + 1) == nil)
    for micros in [earliest, latest, 0, 1_764_504_000_123_456] {
      let date = DocumentTimestamp.checkedDate(microseconds: micros)
      #expect(date.flatMap(DocumentTimestamp.microseconds(of:)) == micros)
    }
  }

  @Test(
    "checkedDate(secondsSince1970:) is nil for non-finite or out-of-range seconds",
    arguments: [.nan, .infinity, -.infinity, 1e17, 1e300, -1e300, 253_402_300_800, -62_135_596_801]
      as [Double])
  func checkedSeconds(seconds: Double) {
    #expect(DocumentTimestamp.checkedDate(secondsSince1970: seconds) == nil)
  }

  @Test("checkedDate(secondsSince1970:) keeps in-range seconds")
  func checkedSecondsInRange() {
    for seconds in [0, 1_764_504_000.5, -62_135_596_800, 253_402_300_799] as [Double] {
      #expect(
        DocumentTimestamp.checkedDate(secondsSince1970: seconds)?.timeIntervalSince1970 == seconds)
    }
  }
}
