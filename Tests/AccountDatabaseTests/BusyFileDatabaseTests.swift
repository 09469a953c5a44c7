import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// A file store whose lock another connection (another process) holds makes its callers
/// wait, but never on a thread of the cooperative pool: with more waiting tasks than the
/// pool has threads, every one of them still starts, and so does the task that releases
/// the lock. Before the waits moved off the pool, the first callers slept in SQLite on
/// every pool thread, the others (and the releasing task) could not run, and the sleepers
/// gave up with "database is locked" after the 5 s busy timeout.
///
/// Not a timing test: the lock is released as soon as every task has started, however
/// long that takes; the store waits up to ten minutes for it (``patientStore(_:)``).
@Suite("UserStore: a busy file holds no cooperative thread", .timeLimit(.minutes(5)))
struct BusyFileDatabaseTests {
  /// More waiting tasks than the cooperative pool has threads (one per core).
  static let waiters = ProcessInfo.processInfo.activeProcessorCount * 2 + 2

  @Test func writesWaitingForAnotherConnectionsLockLeaveThePoolFree() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("busy.sqlite")
    let store = try Self.patientStore(path)
    let holder = try Database(path: path)
    try holder.execute(script: "BEGIN IMMEDIATE;")
    let arrivals = Arrivals()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<Self.waiters {
        group.addTask {
          arrivals.arrive()
          _ = try await store.waitingOffPool {
            try store.createUser(NewUser(email: "busy\(index)@example.com", provider: "password"))
          }
        }
      }
      await arrivals.wait(for: Self.waiters)
      try holder.execute(script: "ROLLBACK;")
      try await group.waitForAll()
    }
    #expect(try store.userCount() == Self.waiters)
  }

  @Test func firstOpensWaitingForAnotherConnectionsLockLeaveThePoolFree() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("new.sqlite")
    let holder = try Database(path: path)
    try holder.execute(script: "BEGIN IMMEDIATE; CREATE TABLE holding (x);")
    let arrivals = Arrivals()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<Self.waiters {
        group.addTask {
          arrivals.arrive()
          _ = try await UserStore.open(path: path, passwordHashIterations: 1_000)
        }
      }
      await arrivals.wait(for: Self.waiters)
      try holder.execute(script: "ROLLBACK;")
      try await group.waitForAll()
    }
    let opened = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try opened.userCount() == 0)
  }

  /// A store on `path` whose statements wait up to ten minutes for another connection's
  /// lock (the public initializer's 5 s could run out on a loaded machine before the test
  /// releases it).
  static func patientStore(_ path: String) throws -> UserStore {
    try UserStore(
      path: path, passwordHashIterations: 1_000, phoneCodeLifetime: 300, clock: SystemClock(),
      randomness: .system, busyTimeout: 600_000)
  }
}

/// Counts tasks that reached a point; ``wait(for:)`` suspends (no polling, no timeout)
/// until that many have.
final class Arrivals: Sendable {
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
