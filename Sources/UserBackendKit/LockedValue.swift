import Foundation

/// A value guarded by a lock, for state shared between threads and tasks: the drop-in
/// replacement for `Synchronization.Mutex` used everywhere in this package.
///
/// Why not `Mutex`: on Linux, `Mutex` locks with futex system calls that
/// ThreadSanitizer cannot see, and `withLock` is inlined into its caller, so every
/// correctly locked access is reported as a data race and no suppression can name it.
/// This type locks a Foundation `NSLock` (a pthread mutex, which ThreadSanitizer
/// intercepts), so `scripts/sanitize thread` reports only real races. The lock is not
/// recursive: calling `withLock` again from inside `body` deadlocks, as with `Mutex`.
/// Never hold it across a suspension point (the closure is synchronous).
package final class LockedValue<Value: ~Copyable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// A lock around `initialValue`.
  package init(_ initialValue: consuming sending Value) {
    value = initialValue
  }

  /// Runs `body` with exclusive access to the value and returns its result.
  ///
  /// - Throws: whatever `body` throws (the lock is released first).
  package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
