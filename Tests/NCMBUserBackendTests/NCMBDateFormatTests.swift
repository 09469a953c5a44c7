import Foundation
import Testing

@testable import NCMBUserBackend

/// `NCMBUserMapping.date(fromISO8601:)` now keeps its two ISO 8601 format styles in
/// statics. This pins it to styles made per call, as before, over dates with and without
/// fractional seconds and over text neither style reads; and reads from many tasks at once.
@Suite(.timeLimit(.minutes(1))) struct NCMBDateFormatTests {
  static func freshStyles(_ text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }

  static let texts: [String] = [
    "2013-08-28T11:27:16.446Z", "2013-08-28T11:27:16Z", "2013-08-28T11:27:16.4Z",
    "2013-08-28T11:27:16.123456Z", "2026-01-01T00:00:00.000Z", "0001-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z", "2013-08-28T11:27:16.446+09:00", "2013-08-28T11:27:16+09:00",
    "2013-08-28 11:27:16Z", "2013-08-28", "2013-02-30T00:00:00Z", "", "garbage",
    "2013-08-28T11:27:16.Z", "2013-08-28T25:00:00Z", "2013-08-28T11:27:16.446",
  ]

  @Test(arguments: texts)
  func readsAsStylesMadePerCall(text: String) {
    #expect(NCMBUserMapping.date(fromISO8601: text) == Self.freshStyles(text))
  }

  @Test func readsTheSameFromManyTasks() async {
    let expected = Self.texts.map(Self.freshStyles)
    let wrong = await withTaskGroup(of: Int.self) { group in
      for task in 0..<32 {
        group.addTask {
          var wrong = 0
          for round in 0..<40 {
            let index = (task + round) % Self.texts.count
            if NCMBUserMapping.date(fromISO8601: Self.texts[index]) != expected[index] {
              wrong += 1
            }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
  }
}
