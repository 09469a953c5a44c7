import Foundation
import Testing

@testable import NCMBUserBackend

/// `NCMBUserMapping.date(fromISO8601:)` reads `createDate` with the port's RFC 3339 reader
/// (`DocumentTimestamp`) instead of Foundation's `ISO8601FormatStyle`. For every date NCMB
/// can send it reads the same instant as the two format styles did; where it differs, it
/// refuses text that is not a real date (the styles rolled `02-30` over into March and
/// hour 25 into the next day) and reads year 1 in the proleptic Gregorian calendar (the
/// styles switched to the Julian calendar before 1582).
@Suite(.timeLimit(.minutes(1))) struct NCMBDateFormatTests {
  /// The reading before: a fractional style, then a whole-second one.
  static func formatStyles(_ text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }

  /// Dates NCMB sends (milliseconds, `Z`) and their near shapes.
  static let sameAsBefore: [String] = [
    "2013-08-28T11:27:16.446Z", "2013-08-28T11:27:16Z", "2013-08-28T11:27:16.4Z",
    "2013-08-28T11:27:16.123456Z", "2026-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z",
    "9999-12-31T23:59:59.999Z", "2013-08-28T11:27:16.446+09:00", "2013-08-28T11:27:16+09:00",
    "2013-08-28 11:27:16Z", "2013-08-28", "", "garbage", "2013-08-28T11:27:16.Z",
    "2013-08-28T11:27:16.446",
  ]

  @Test(arguments: sameAsBefore)
  func readsAsTheFormatStylesDid(text: String) {
    #expect(NCMBUserMapping.date(fromISO8601: text) == Self.formatStyles(text))
  }

  @Test(
    "text that is not a real date is refused (the format styles rolled it over)",
    arguments: [
      "2013-02-30T00:00:00Z", "2013-08-28T25:00:00Z", "2013-13-01T00:00:00Z",
      "2013-08-28T11:60:00Z", "2023-02-29T00:00:00.000Z",
    ])
  func impossibleDatesAreRefused(text: String) {
    #expect(NCMBUserMapping.date(fromISO8601: text) == nil)
  }

  @Test("year 1 is read in the proleptic Gregorian calendar, as RFC 3339 counts it")
  func yearOneIsGregorian() throws {
    let date = try #require(NCMBUserMapping.date(fromISO8601: "0001-01-01T00:00:00.000Z"))
    #expect(date.timeIntervalSince1970 == -62_135_596_800)
  }

  @Test func readsTheSameFromManyTasks() async {
    let texts = Self.sameAsBefore
    let expected = texts.map(Self.formatStyles)
    let wrong = await withTaskGroup(of: Int.self) { group in
      for task in 0..<32 {
        group.addTask {
          var wrong = 0
          for round in 0..<40 {
            let index = (task + round) % texts.count
            if NCMBUserMapping.date(fromISO8601: texts[index]) != expected[index] { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
  }
}
