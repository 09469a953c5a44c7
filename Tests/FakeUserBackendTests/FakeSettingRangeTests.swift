import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// Settings out of range never trap: they used to, when a token's `exp` or the
/// recent-login message turned them into an `Int`.
@Suite("The fake's lifetime settings out of range", .timeLimit(.minutes(1)))
struct FakeSettingRangeTests {
  @Test(
    "an infinite, huge, negative or NaN setting is clamped, not trapped on",
    arguments: [Double.infinity, -.infinity, 1e300, -5, .nan])
  func clamped(value: Double) async throws {
    let store = try makeStore(clock: ManualClock())
    let backend = FakeUserBackend(
      store: store, sessionStore: InMemorySessionStore(), idTokenLifetime: value,
      recentLoginWindow: value)
    #expect((1...31_536_000).contains(backend.idTokenLifetime))
    #expect((0...31_536_000).contains(backend.recentLoginWindow))
    let session = try await backend.signUp(.email("a@example.com", password: "secret1"))
    let lifetime = try #require(session.expiresAt).timeIntervalSince(store.clock.now())
    #expect(lifetime >= 1 && lifetime <= 31_536_000)
  }
}
