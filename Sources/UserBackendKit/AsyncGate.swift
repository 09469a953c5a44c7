/// A FIFO asynchronous lock: `acquire()` suspends (never blocks a thread) until every
/// earlier holder has called `release()`.
package actor AsyncGate {
  /// An open gate.
  package init() {}

  private var held = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Waits for the gate, then holds it.
  package func acquire() async {
    if !held {
      held = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Hands the gate to the next waiter, or opens it.
  package func release() {
    if waiters.isEmpty {
      held = false
    } else {
      waiters.removeFirst().resume()
    }
  }

}
