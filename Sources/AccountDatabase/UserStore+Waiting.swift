import Dispatch
import Foundation
import UserBackendKit

/// Where a store's synchronous calls wait for other connections' locks.
///
/// A file store's statements can wait inside SQLite (its busy handler sleeps the calling
/// thread, up to the busy timeout) while another process holds the file's lock, and its
/// first open retries for up to ``UserStoreSchema/openingRetryLimit``. Such a wait must not
/// hold a thread of Swift's cooperative pool: with every pool thread asleep in SQLite, no
/// other task of the process runs (not the emulator's other requests, not the test that
/// would release the lock). Async callers therefore run file-store calls through
/// ``UserStore/waitingOffPool(_:)``, which hands them to a dispatch queue of the store's
/// own and suspends until they return.
///
/// Decision: a queue, not an async retry (`Task.sleep` on `SQLITE_BUSY`). Every store
/// method is synchronous and several run more than one statement outside a transaction
/// (a lookup, then PBKDF2, then a write), so retrying a whole call after a refusal
/// could repeat a write that already committed; and an async store would change every
/// caller of a public API. SQLite's own wait stays (the same timeouts, the same
/// cross-process semantics), it just sleeps a dispatch thread. An in-memory store is
/// private to its connection, no other connection can hold its lock, so its calls run
/// inline on the caller's task: the common path pays no queue hop.
enum StoreWaiting {
  /// The queue file-store calls wait on: concurrent (a dispatch thread blocked in
  /// SQLite's busy handler makes dispatch start another, never a pool thread), so PBKDF2
  /// of parallel requests still runs in parallel; the store's lock serializes SQL.
  static let queue = DispatchQueue(
    label: "AccountDatabase.UserStore.waiting", qos: .userInitiated, attributes: .concurrent)

  /// Whether a database at `path` can be locked by another connection: every path but
  /// `":memory:"` and `""` (a private temporary database).
  static func isShared(_ path: String) -> Bool { path != ":memory:" && !path.isEmpty }

  /// Runs `body` on ``queue`` and suspends until it returns.
  static func offPool<T: Sendable, E: Error>(
    _ body: @escaping @Sendable () throws(E) -> T
  ) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: Result(catching: body)) }
    }
    return try result.get()
  }
}

extension UserStore {
  /// Runs `body` (synchronous calls of this store) where its waits for another
  /// connection's lock cannot hold a thread of the cooperative pool, and returns its
  /// result.
  ///
  /// For a file store, `body` runs on a dispatch queue of the store module's own and the
  /// calling task suspends meanwhile; a statement that meets another process's lock waits
  /// there (up to the store's busy timeout, 5 s). For an in-memory store (no other
  /// connection can lock it) `body` runs inline. Call store methods from async code
  /// through this; run a whole multi-call operation in one `body` to pay one hop.
  /// Cancellation does not interrupt `body` (a wait in SQLite is bounded by the timeout).
  ///
  /// - Throws: what `body` throws.
  public func waitingOffPool<T: Sendable, E: Error>(
    _ body: @escaping @Sendable () throws(E) -> T
  ) async throws(E) -> T {
    guard StoreWaiting.isShared(path) else { return try body() }
    return try await StoreWaiting.offPool(body)
  }

  /// Opens (creating when missing) a store as
  /// ``init(path:passwordHashIterations:phoneCodeLifetime:clock:randomness:)`` does, for
  /// async callers: the opening of a file (which retries for up to
  /// ``UserStoreSchema/openingRetryLimit`` while other processes create or migrate the
  /// same file, and whose statements wait for their locks) runs on the store's dispatch
  /// queue, never on a thread of the cooperative pool. `":memory:"` opens inline.
  ///
  /// - Throws: as the initializer: ``UserStoreFileError``, ``UserStoreError``.
  public static func open(
    path: String = ":memory:", passwordHashIterations: Int = 10_000,
    phoneCodeLifetime: TimeInterval = 300, clock: any AuthClock = SystemClock(),
    randomness: UserStoreRandomness = .system
  ) async throws -> UserStore {
    let open: @Sendable () throws -> UserStore = {
      try UserStore(
        path: path, passwordHashIterations: passwordHashIterations,
        phoneCodeLifetime: phoneCodeLifetime, clock: clock, randomness: randomness)
    }
    guard StoreWaiting.isShared(path) else { return try open() }
    return try await StoreWaiting.offPool(open)
  }
}
