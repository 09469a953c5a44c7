import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// The emulator over a file store whose lock another process holds (another `baas
/// emulator --data` on the same file): its requests wait for the lock off the cooperative
/// pool, through the emulator and through each protocol handler, so more of them than
/// the pool has threads all start (and so does the task that releases the lock). Before,
/// each waited in SQLite on a pool thread, the rest could not start, and the waiters
/// answered 500 "database is locked" after the 5 s busy timeout. Not a timing test: the
/// lock is released once every request has started; the store waits up to ten minutes.
@Suite("Emulator: a busy file store holds no cooperative thread", .timeLimit(.minutes(5)))
struct BusyFileEmulatorTests {
  @Test func requestsWaitOffThePool() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("emulator.sqlite").path
    let store = try UserStore(
      path: path, passwordHashIterations: 1, phoneCodeLifetime: 300, clock: SystemClock(),
      randomness: .system, busyTimeout: 600_000)
    let emulator = BackendEmulator(store: store)
    let holder = try Database(path: path)
    try holder.execute(script: "BEGIN IMMEDIATE;")
    // Each entry point in turn: the emulator, the Firebase handler, the NCMB handler.
    let waiters = ProcessInfo.processInfo.activeProcessorCount * 3 + 3
    let arrivals = EmulatorArrivals()
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<waiters {
        group.addTask {
          arrivals.arrive()
          let signUp = FirebaseRequests().accounts(
            "signUp", ["email": "busy\(index)@example.com", "password": "secret1"])
          switch index % 3 {
          case 0: return await emulator.handle(signUp).status
          case 1: return await emulator.firebase.handle(signUp).status
          default:
            let create = NCMBRequests().request(
              .post, "/2013-09-01/users", body: ["userName": "busy\(index)", "password": "secret1"])
            return await emulator.ncmb.handle(create).status
          }
        }
      }
      await arrivals.wait(for: waiters)
      try holder.execute(script: "ROLLBACK;")
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses.allSatisfy { (200..<300).contains($0) }, "\(statuses)")
    #expect(try store.userCount() == waiters)
  }
}

/// Counts tasks that reached a point; ``wait(for:)`` suspends (no polling, no timeout)
/// until that many have.
final class EmulatorArrivals: Sendable {
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
