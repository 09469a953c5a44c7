import BackendEmulator
import Foundation
import Synchronization
import Testing
import UserBackendKit

/// Who asks for and who holds the exclusive (refresh) lock of one stored state, over
/// every ``ChangeRaceSessionStore`` view of it.
final class RefreshLockWatch: Sendable {
  let requested = Atomic<Int>(0)
  let entered = Atomic<Int>(0)
  let left = Atomic<Int>(0)

  /// Whether a caller is waiting for the exclusive lock while another holds it.
  var someoneWaits: Bool {
    let entered = entered.load(ordering: .sequentiallyConsistent)
    return requested.load(ordering: .sequentiallyConsistent) > entered
      && entered > left.load(ordering: .sequentiallyConsistent)
  }
}

/// A view of a shared in-memory store (another process on the same session file, with
/// its own session engine) that reports its exclusive-lock use to a ``RefreshLockWatch``
/// and runs an armed hook when the next session write begins, before it takes the
/// store's update lock: the moment an account change has its answer and is about to
/// store it.
final class ChangeRaceSessionStore: SessionStore {
  let inner: InMemorySessionStore
  let watch: RefreshLockWatch
  private let hook = LockedValue<(@Sendable () async -> Void)?>(nil)

  init(_ inner: InMemorySessionStore, _ watch: RefreshLockWatch) {
    self.inner = inner
    self.watch = watch
  }

  /// Runs `body` at the start of the next ``withExclusiveUpdate(_:)``, once.
  func arm(_ body: @escaping @Sendable () async -> Void) { hook.withLock { $0 = body } }

  func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    watch.requested.add(1, ordering: .sequentiallyConsistent)
    return try await inner.withExclusiveAccess {
      watch.entered.add(1, ordering: .sequentiallyConsistent)
      defer { watch.left.add(1, ordering: .sequentiallyConsistent) }
      return try await body()
    }
  }

  func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    if let armed = hook.withLock({ hook in
      defer { hook = nil }; return hook
    }) {
      await armed()
    }
    return try await inner.withExclusiveUpdate(body)
  }

  func load() async throws -> PersistedAuthState { try await inner.load() }
  func save(_ state: PersistedAuthState) async throws { try await inner.save(state) }
  func clear() async throws { try await inner.clear() }
}

/// Attack round 6, M1: an account change whose answer replaces the tokens (a password or
/// email change) or rewrites the stored session (a profile change) raced a token refresh.
/// The server had revoked the old refresh token, so the refresh in flight was refused and
/// cleared the session, and the change then stored nothing yet reported success (Firebase);
/// on the fake the refresh rotated the token under the change, which then dropped its new
/// session. Changes now run under the refresh lock: the refresh waits and finds the new
/// session.
@Suite("Account changes and a concurrent refresh", .timeLimit(.minutes(2)))
struct TokenReplacingChangeRaceTests {
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case password, email, profile
    var testDescription: String { rawValue }
  }

  @Test(
    "a refresh during an account change leaves the changed session signed in",
    arguments: ["fake", "firebase", "ncmb"], Change.allCases)
  func refreshDuringChange(backend name: String, change: Change) async throws {
    let rig = try EmulatorRig(.inProcess)
    let shared = InMemorySessionStore()
    let watch = RefreshLockWatch()
    let sessions = ChangeRaceSessionStore(shared, watch)
    let backend = try makeBackend(name, rig, sessions)
    // A second client on the same stored session, like a second process on one file.
    let other = try makeBackend(name, rig, ChangeRaceSessionStore(shared, watch))
    _ = try await backend.signUp(.email("race-\(change)@example.com", password: "first-secret-1"))
    let done = LockedValue(false)
    let refresh = LockedValue<Task<Void, Never>?>(nil)
    // When the change is about to store its answer (the server has applied it), the other
    // client's refresh of the old tokens starts and runs as far as it can: to its end, or until it waits
    // for a lock the change holds.
    sessions.arm {
      let task = Task {
        _ = try? await other.idToken(forceRefresh: true)
        done.withLock { $0 = true }
      }
      refresh.withLock { $0 = task }
      while !done.withLock({ $0 }) && !watch.someoneWaits {
        try? await Task.sleep(for: .milliseconds(2))
      }
    }
    switch change {
    case .password: try await backend.updatePassword("second-secret-2")
    case .email: _ = try await backend.updateEmail("moved-\(name)@example.com")
    case .profile: _ = try await backend.updateProfile(displayName: "Changed", photoURL: nil)
    }
    await refresh.withLock { $0 }?.value

    let user = try #require(
      try await backend.currentUser(), "the change succeeded, yet nobody is signed in")
    switch change {
    case .password: break
    case .email: #expect(user.email == "moved-\(name)@example.com")
    case .profile: #expect(user.displayName == "Changed")
    }
    // The stored tokens are the live ones: a refresh from them works.
    _ = try await backend.idToken(forceRefresh: true)
    #expect(try await backend.currentUser()?.id == user.id)
  }
}
