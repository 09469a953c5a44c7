import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// The fake over a file store whose lock another process holds: its operations wait for
/// the lock off the cooperative pool, so more of them than the pool has threads all start
/// (and so does the task that releases the lock). Before, each waited in SQLite on a pool
/// thread, the rest could not start, and the waiters failed with "database is locked"
/// after the 5 s busy timeout. Not a timing test: the lock is released once every
/// operation has started, and the store waits up to ten minutes for it.
@Suite("FakeUserBackend: a busy file store holds no cooperative thread", .timeLimit(.minutes(5)))
struct BusyFileStoreTests {
  @Test func signInsAndDocumentWritesWaitOffThePool() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("fake.sqlite").path
    let store = try UserStore(
      path: path, passwordHashIterations: 1_000, phoneCodeLifetime: 300, clock: SystemClock(),
      randomness: .system, busyTimeout: 600_000)
    // Signed in before the lock is taken: its document write waits below.
    let writer = FakeUserBackend(store: store, sessionStore: InMemorySessionStore())
    _ = try await writer.signInAnonymously()
    let holder = try Database(path: path)
    try holder.execute(script: "BEGIN IMMEDIATE;")
    let waiters = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
    let arrivals = FakeArrivals()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<waiters {
        group.addTask {
          let backend = FakeUserBackend(store: store, sessionStore: InMemorySessionStore())
          arrivals.arrive()
          _ = try await backend.signUp(.email("busy\(index)@example.com", password: "secret1"))
        }
      }
      group.addTask {
        arrivals.arrive()
        _ = try await FakeUserDocumentStore(backend: writer).updateDocument(
          userID: nil, setting: ["n": .integer(1)], removing: [])
      }
      await arrivals.wait(for: waiters + 1)
      try holder.execute(script: "ROLLBACK;")
      try await group.waitForAll()
    }
    #expect(try store.userCount() == waiters + 1)
  }
}

/// Counts tasks that reached a point; ``wait(for:)`` suspends (no polling, no timeout)
/// until that many have.
final class FakeArrivals: Sendable {
  private struct State {
    var count = 0
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = LockedValue(State())

  /// One more arrival; resumes the waiters it satisfies.
  func arrive() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count += 1
      let count = state.count
      let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
      state.waiters.removeAll { $0.count <= count }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once `count` arrivals happened.
  func wait(for count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if state.count >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }
}
