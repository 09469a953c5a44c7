import Foundation
import UserBackendKit

/// Serialises read-modify-write cycles on a ``SessionStore`` within one backend instance,
/// so that a refresh finishing late can never resurrect a session that a concurrent
/// sign-out or sign-in replaced. Store I/O failures become ``UserBackendError``
/// `.misconfigured(setting: "sessionStore")`; a failed write leaves the stored state as it was.
struct SessionStateStore: Sendable {
  /// The underlying store.
  let store: any SessionStore
  private let gate = AsyncGate()

  init(store: any SessionStore) { self.store = store }

  /// The stored state.
  /// - Throws: ``UserBackendError`` when the store cannot be read.
  func load() async throws -> PersistedAuthState {
    do {
      return try await store.load()
    } catch {
      throw Self.storeError(error, action: "read")
    }
  }

  /// Loads the state, lets `transform` change it, and saves it when `transform` returns
  /// `true`, all while no other update of this instance runs.
  ///
  /// - Returns: whether the state was saved.
  /// - Throws: ``UserBackendError`` on a store failure, or what `transform` throws.
  @discardableResult
  func update(_ transform: (inout PersistedAuthState) throws -> Bool) async throws -> Bool {
    await gate.acquire()
    do {
      var state = try await load()
      let changed = try transform(&state)
      if changed {
        do {
          try await store.save(state)
        } catch {
          throw Self.storeError(error, action: "write")
        }
      }
      await gate.release()
      return changed
    } catch {
      await gate.release()
      throw error
    }
  }

  private static func storeError(_ error: any Error, action: String) -> UserBackendError {
    if let error = error as? UserBackendError { return error }
    return UserBackendError(
      .misconfigured(
        setting: "sessionStore", reason: "could not \(action) the session store: \(error)"))
  }
}

/// A FIFO asynchronous lock: `acquire()` suspends until every earlier holder has called
/// `release()`.
actor AsyncGate {
  private var held = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Waits for the gate, then holds it.
  func acquire() async {
    if !held {
      held = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Hands the gate to the next waiter, or opens it.
  func release() {
    if waiters.isEmpty {
      held = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
