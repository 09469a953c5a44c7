import Foundation

extension EmulatorServer {
  /// ``stop()`` for async callers: the same graceful stop, but its waits (in-flight
  /// requests, the drain timeout) run on a thread of its own, so no thread of Swift's
  /// cooperative pool is blocked meanwhile. Handlers still running need that pool to
  /// finish; blocking it from `stop()` could delay them until the drain timeout.
  /// Calling it again, or before ``start()``, does nothing.
  public func shutDown() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        self.stop()
        continuation.resume()
      }.start()
    }
  }
}
