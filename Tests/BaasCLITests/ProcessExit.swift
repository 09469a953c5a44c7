import Foundation
import Synchronization
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exit of a child process, awaited without blocking any thread: `Process`'s
/// termination handler resumes the waiting tasks (never `waitUntilExit`, never a
/// semaphore, both of which would hold one of the cooperative pool's few threads).
///
/// Create it before `process.run()`: it installs the termination handler.
final class ProcessExit: Sendable {
  private struct State {
    var exited = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = LockedValue(State())

  init(_ process: Process) {
    process.terminationHandler = { [self] _ in markExited() }
  }

  /// Suspends until the process has exited.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let alreadyExited = state.withLock { state in
        if state.exited { return true }
        state.waiters.append(continuation)
        return false
      }
      if alreadyExited { continuation.resume() }
    }
  }

  /// Suspends until the process has exited; after `timeout` seconds it is sent SIGKILL
  /// (so this always returns).
  /// - Returns: `true` when it exited on its own within `timeout`.
  func wait(timeout: TimeInterval, killing pid: Int32) async -> Bool {
    let timedOut = TimeoutFlag()
    let watchdog = Task.detached {
      try await Task.sleep(for: .seconds(timeout))
      timedOut.value.store(true, ordering: .sequentiallyConsistent)
      kill(pid, SIGKILL)
    }
    await wait()
    watchdog.cancel()
    return !timedOut.value.load(ordering: .sequentiallyConsistent)
  }

  private final class TimeoutFlag: Sendable {
    let value = Atomic<Bool>(false)
  }

  private func markExited() {
    let waiters = state.withLock { state in
      state.exited = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
