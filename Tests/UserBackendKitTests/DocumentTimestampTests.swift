import Foundation
import Testing
import UserBackendKit

@Suite(.timeLimit(.minutes(1)))
struct DocumentTimestampTests {
  @Test(arguments: [
    ("1970-01-01T00:00:00.000000Z", Int64(0)),
    ("2025-11-30T12:00:00.123456Z", Int64(1_764_504_000_123_456)),
    ("1969-12-31T23:59:59.999999Z", Int64(-1)),
    ("0001-01-01T00:00:00.000000Z", Int64(-62_135_596_800_000_000)),
    ("9999-12-31T23:59:59.000000Z", Int64(253_402_300_799_000_000)),
    ("2024-02-29T00:00:00.000001Z", Int64(1_709_164_800_000_001)),
  ])
  func formatsAndParses(text: String, micros: Int64) {
    #expect(DocumentTimestamp.rfc3339(microseconds: micros) == text)
    #expect(DocumentTimestamp.parseMicroseconds(text) == micros)
    let date = DocumentTimestamp.date(microseconds: micros)
    #expect(DocumentTimestamp.microseconds(of: date) == micros)
    #expect(DocumentTimestamp.rfc3339(date) == text)
  }

  @Test func acceptsOtherRFC3339Shapes() {
    #expect(
      DocumentTimestamp.parseMicroseconds("2025-11-30T21:00:00+09:00") == 1_764_504_000_000_000)
    #expect(DocumentTimestamp.parseMicroseconds("2025-11-30t12:00:00.5z") == 1_764_504_000_500_000)
    #expect(
      DocumentTimestamp.parseMicroseconds("2025-11-30T12:00:00.123456789Z")
        == 1_764_504_000_123_456)
  }

  @Test(arguments: [
    "", "2026-11-30", "2026-11-30T12:00:00", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z",
    "2026-11-30T24:00:00Z", "2026-11-30T12:00:00.Z", "2026-11-30T12:00:00Zjunk",
    "10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", "2026-11-30 12:00:00Z",
  ])
  func rejectsOtherText(text: String) {
    #expect(DocumentTimestamp.parseMicroseconds(text) == nil)
  }

  @Test func theLastMicrosecondFormatsAndParsesAsAnInteger() {
    let last: Int64 = 253_402_300_799_999_999
    #expect(DocumentTimestamp.rfc3339(microseconds: last) == "9999-12-31T23:59:59.999999Z")
    #expect(DocumentTimestamp.parseMicroseconds("9999-12-31T23:59:59.999999Z") == last)
    // A Date there is coarser than a microsecond: it is clamped into the range.
    #expect(
      DocumentTimestamp.rfc3339(DocumentValidation.latestTimestamp)?.hasPrefix("9999-") == true)
  }

  @Test func everyMicrosecondRoundTripsThroughDate() {
    var micros: Int64 = 1_764_504_000_000_000
    for step in 0..<2_000 {
      micros += Int64(step) * 7_919
      let date = DocumentTimestamp.date(microseconds: micros)
      #expect(DocumentTimestamp.microseconds(of: date) == micros)
      #expect(DocumentTimestamp.rounded(date) == date)
    }
  }
}
