import Foundation

/// The wall clock a backend reads for token expiry, timestamps and signatures.
/// Injected so tests and cassette replay control time.
public protocol AuthClock: Sendable {
  /// The current time.
  func now() -> Date
}

/// The real wall clock.
public struct SystemClock: AuthClock {
  /// The system clock.
  public init() {}
  /// `Date()`.
  public func now() -> Date { Date() }
}

/// A clock that moves only when told to; for tests and replay.
public final class ManualClock: AuthClock {
  private let current: LockedValue<Date>

  /// A clock stopped at `start`.
  public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
    current = LockedValue(start)
  }

  /// The stopped time.
  public func now() -> Date { current.withLock { $0 } }

  /// Moves the clock forward by `seconds`.
  public func advance(by seconds: TimeInterval) {
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }

  /// Sets the clock to `date`.
  public func set(_ date: Date) { current.withLock { $0 = date } }
}
