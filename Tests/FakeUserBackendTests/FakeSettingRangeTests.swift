import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// Settings out of range never trap: they used to, when a token's `exp` or the
/// recent-login message turned them into an `Int`. The ID token lifetime follows the one
/// rule every layer applies (``UserBackendKit/TokenLifetime``, 600 s to a year): a value
/// outside is refused naming the setting, so the fake never issues a token the Firebase
/// adapter or the token verifier would refuse as unbelievable.
@Suite("The fake's lifetime settings out of range", .timeLimit(.minutes(1)))
struct FakeSettingRangeTests {
  @Test(
    "an ID token lifetime outside TokenLifetime is refused, naming idTokenLifetime",
    arguments: [
      Double.infinity, -.infinity, 1e300, -5, .nan, 0, 1, 60, 599, 599.9, 31_536_001,
    ])
  func lifetimeRefused(value: Double) throws {
    let store = try makeStore(clock: ManualClock())
    let error = #expect(throws: UserBackendError.self) {
      _ = try FakeUserBackend(
        store: store, sessionStore: InMemorySessionStore(), idTokenLifetime: value)
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("not misconfigured: \(String(describing: error))")
      return
    }
    #expect(setting == "idTokenLifetime")
    #expect(reason == TokenLifetime.problem(value))
  }

  @Test(
    "the edges of TokenLifetime are accepted and issue tokens of that lifetime",
    arguments: [TokenLifetime.minimum, 3600, TokenLifetime.maximum])
  func lifetimeAccepted(value: Double) async throws {
    let store = try makeStore(clock: ManualClock())
    let backend = try FakeUserBackend(
      store: store, sessionStore: InMemorySessionStore(), idTokenLifetime: value)
    let session = try await backend.signUp(.email("a@example.com", password: "secret1"))
    let lifetime = try #require(session.expiresAt).timeIntervalSince(store.clock.now())
    #expect(lifetime == value)
    #expect(TokenLifetime.problem(lifetime) == nil)
  }

  @Test(
    "an infinite, huge, negative or NaN recent-login window is clamped, not trapped on",
    arguments: [Double.infinity, -.infinity, 1e300, -5, .nan])
  func windowClamped(value: Double) async throws {
    let store = try makeStore(clock: ManualClock())
    let backend = FakeUserBackend(
      store: store, sessionStore: InMemorySessionStore(), recentLoginWindow: value)
    #expect((0...31_536_000).contains(backend.recentLoginWindow))
    _ = try await backend.signUp(.email("a@example.com", password: "secret1"))
  }
}
