import Foundation
import Testing
import UserBackendKit

@Suite("RetryAfter.parse", .timeLimit(.minutes(2)))
struct RetryAfterParsingTests {
  static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT

  @Test(
    "delay-seconds and IMF-fixdate forms; anything unusable is nil",
    arguments: [
      ("120", 120 as TimeInterval?), (" 0 ", 0), ("1.5", 1.5), ("86401", 86_400),
      ("Wed, 21 Oct 2015 07:29:00 GMT", 60), ("Wed, 21 Oct 2015 07:00:00 GMT", 0),
      ("Fri, 21 Oct 2016 07:28:00 GMT", 86_400), ("-1", nil), ("1e300", nil), ("inf", nil),
      ("nan", nil), ("+5", nil), ("", nil), ("tomorrow", nil), (nil, nil),
    ] as [(String?, TimeInterval?)])
  func parse(_ value: String?, _ expected: TimeInterval?) {
    #expect(RetryAfter.parse(value, now: Self.now) == expected)
  }
}
