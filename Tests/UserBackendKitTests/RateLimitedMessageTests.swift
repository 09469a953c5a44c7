import Foundation
import Testing
import UserBackendKit

@Suite("rateLimited is safe to describe for any delay", .timeLimit(.minutes(2)))
struct RateLimitedMessageTests {
  @Test(
    "delays that are not finite or are negative read as unknown",
    arguments: [
      TimeInterval.infinity, -TimeInterval.infinity, TimeInterval.nan, -5, -0.5,
      -TimeInterval.greatestFiniteMagnitude,
    ])
  func unusable(_ delay: TimeInterval) {
    let error = UserBackendError(.rateLimited(retryAfter: delay))
    #expect(error.message == "Too many requests.")
    #expect(error.description == "rateLimited: Too many requests.")
  }

  @Test(
    "usable delays are shown in whole seconds, rounded up and at most one day",
    arguments: [
      (TimeInterval(30), "30"), (0, "0"), (0.2, "1"), (86_400, "86400"), (1e300, "86400"),
      (TimeInterval.greatestFiniteMagnitude, "86400"), (9.3e18, "86400"),
    ])
  func usable(_ delay: TimeInterval, _ shown: String) {
    let error = UserBackendError(.rateLimited(retryAfter: delay))
    #expect(error.message == "Too many requests; retry after \(shown) s.")
  }
}
