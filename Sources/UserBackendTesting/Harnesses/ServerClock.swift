import BackendHTTP
import Foundation
import UserBackendKit

/// The emulator's clock in a contract run: the run's `ManualClock` (which the adapter reads
/// and `advanceClock` steps move) plus one second for every request the emulator has
/// handled.
///
/// With a stopped clock, two ID tokens minted for the same sign-in would be identical, so
/// a forced refresh could not be told apart from the cached token; letting server time
/// move by a whole second (the resolution of `iat`) per request makes each answer
/// distinct, and stays reproducible because the count of requests is.
final class ServerClock: AuthClock {
  /// The run's clock.
  let base: ManualClock
  private let handled = LockedValue<Int>(0)

  init(base: ManualClock) { self.base = base }

  /// `base.now()` plus one second per handled request.
  func now() -> Date {
    base.now().addingTimeInterval(TimeInterval(handled.withLock { $0 }))
  }

  /// Counts one more handled request.
  func tick() { handled.withLock { $0 += 1 } }
}

/// Advances a ``ServerClock`` by one request before passing the request on.
struct TickingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let clock: ServerClock

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    clock.tick()
    return try await wrapped.send(request)
  }
}
