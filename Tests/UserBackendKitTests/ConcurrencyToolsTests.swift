import Testing
import UserBackendKit

/// A gate the test opens once, releasing every waiter.
final class Gate: Sendable {
  private let state = LockedValue<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

struct TestFailure: Error, Equatable {}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = LockedValue(0)
  /// Adds one and returns the new value.
  @discardableResult
  func increment() -> Int {
    value.withLock {
      $0 += 1; return $0
    }
  }
  var current: Int { value.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(2))) struct SingleFlightTests {
  @Test func concurrentCallersShareOneRun() async throws {
    let flight = SingleFlight<String, Int>()
    let runs = Counter()
    let arrived = Counter()
    let gate = Gate()
    let callers = 25
    let results = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<callers {
        group.addTask {
          arrived.increment()
          return try await flight.run(key: "refresh-token") {
            await gate.wait()
            return runs.increment()
          }
        }
      }
      // Let every caller reach the actor before the shared run may finish.
      while arrived.current < callers { await Task.yield() }
      for _ in 0..<100 { await Task.yield() }
      gate.open()
      var results: [Int] = []
      for try await result in group { results.append(result) }
      return results
    }
    #expect(runs.current == 1)
    #expect(results == Array(repeating: 1, count: callers))
  }

  @Test func everyJoinedCallerGetsTheError() async {
    let flight = SingleFlight<Int, Int>()
    let gate = Gate()
    let callers = (0..<2).map { _ in
      Task {
        try await flight.run(key: 1) { () async throws -> Int in
          await gate.wait()
          throw TestFailure()
        }
      }
    }
    for _ in 0..<100 { await Task.yield() }
    gate.open()
    for caller in callers {
      await #expect(throws: TestFailure.self) { _ = try await caller.value }
    }
  }

  @Test func aLaterCallRunsAgainAndKeysAreIndependent() async throws {
    let flight = SingleFlight<String, Int>()
    let runs = Counter()
    let operation: @Sendable () async throws -> Int = {
      runs.increment()
    }
    _ = try await flight.run(key: "a", operation)
    _ = try await flight.run(key: "a", operation)
    _ = try await flight.run(key: "b", operation)
    #expect(runs.current == 3)
  }
}

@Suite(.timeLimit(.minutes(2))) struct AuthStateBroadcasterTests {
  @Test func initialStateComesFirstThenChangesInOrder() async {
    let broadcaster = AuthStateBroadcaster()
    let ann = User(id: "ann")
    let stream = broadcaster.stream { ann }
    // Published before the initial state is delivered: buffered behind it.
    broadcaster.publish(AuthStateChange(.tokenRefreshed, user: ann))
    broadcaster.publish(AuthStateChange(.signedOut, user: nil))
    var iterator = stream.makeAsyncIterator()
    var received: [AuthStateChange] = []
    for _ in 0..<3 { if let change = await iterator.next() { received.append(change) } }
    broadcaster.publish(AuthStateChange(.signedIn, user: ann))
    if let change = await iterator.next() { received.append(change) }
    #expect(
      received == [
        AuthStateChange(.initialState, user: ann), AuthStateChange(.tokenRefreshed, user: ann),
        AuthStateChange(.signedOut, user: nil), AuthStateChange(.signedIn, user: ann),
      ])
  }

  @Test func everySubscriberGetsEveryChange() async {
    let broadcaster = AuthStateBroadcaster()
    let first = broadcaster.stream { nil }
    let second = broadcaster.stream { nil }
    broadcaster.publish(AuthStateChange(.sessionRevoked, user: nil))
    for stream in [first, second] {
      var iterator = stream.makeAsyncIterator()
      #expect(await iterator.next()?.event == .initialState)
      #expect(await iterator.next()?.event == .sessionRevoked)
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct LockedValueTests {
  @Test func concurrentUpdatesAreNeverLost() async {
    let counts = LockedValue<[Int: Int]>([:])
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for step in 0..<500 { counts.withLock { $0[step % 5, default: 0] += task } }
        }
      }
    }
    // Each task adds its number 500 times: 500 × (0 + 1 + … + 7).
    #expect(counts.withLock { $0.values.reduce(0, +) } == 500 * 28)
  }

  @Test func aThrowingBodyReleasesTheLockAndKeepsItsWrites() {
    let value = LockedValue(1)
    #expect(throws: TestFailure.self) {
      try value.withLock { (number: inout Int) throws(TestFailure) -> Void in
        number = 2
        throw TestFailure()
      }
    }
    // Would deadlock if the throw had left the lock held.
    #expect(value.withLock { $0 } == 2)
  }
}
