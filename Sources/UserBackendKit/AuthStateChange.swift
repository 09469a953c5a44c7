import Synchronization

/// One change of sign-in state, as yielded by ``UserBackend/authStateChanges``.
public struct AuthStateChange: Sendable, Hashable {
  /// What happened.
  public enum Event: String, Sendable, Hashable, Codable {
    /// The state when the stream was created (always the first element).
    case initialState
    /// A user signed in (or signed up).
    case signedIn
    /// The user signed out.
    case signedOut
    /// The bearer token was refreshed.
    case tokenRefreshed
    /// The server rejected the session (user deleted or disabled, token revoked) and it
    /// was cleared.
    case sessionRevoked
  }

  /// What happened.
  public var event: Event
  /// The signed-in user after the change, or `nil` when signed out.
  public var user: User?

  /// A change value.
  public init(_ event: Event, user: User?) {
    self.event = event
    self.user = user
  }
}

/// Fans auth state changes out to any number of ``AsyncStream`` subscribers. Backends
/// use it to implement ``UserBackend/authStateChanges``.
package final class AuthStateBroadcaster: Sendable {
  private struct Subscriber {
    var continuation: AsyncStream<AuthStateChange>.Continuation
    var ready = false
    var buffered: [AuthStateChange] = []
  }

  private let subscribers = LockedValue<[Int: Subscriber]>([:])
  private let nextID = Atomic<Int>(0)

  /// An empty broadcaster.
  package init() {}

  /// A new stream that first yields `.initialState` with `current()`, then every
  /// ``publish(_:)`` made after this call, in order. The stream ends when the subscriber
  /// stops iterating.
  ///
  /// `current()` runs in a task after this call returns, so the initial state is the
  /// state when the stream starts producing: a change published in between is reflected
  /// in the initial state *and* delivered after it (for example `initialState(nil)` then
  /// `signedOut` when a sign-out races the subscription). Callers that need the state at
  /// subscription time should wait for the initial element before acting.
  package func stream(current: @escaping @Sendable () async -> User?) -> AsyncStream<
    AuthStateChange
  > {
    let (stream, continuation) = AsyncStream<AuthStateChange>.makeStream(
      bufferingPolicy: .unbounded)
    let id = nextID.add(1, ordering: .relaxed).newValue
    subscribers.withLock { $0[id] = Subscriber(continuation: continuation) }
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    Task {
      let user = await current()
      self.subscribers.withLock { all in
        guard var subscriber = all[id] else { return }
        subscriber.continuation.yield(AuthStateChange(.initialState, user: user))
        for change in subscriber.buffered { subscriber.continuation.yield(change) }
        subscriber.buffered = []
        subscriber.ready = true
        all[id] = subscriber
      }
    }
    return stream
  }

  /// Delivers `change` to every live subscriber (after its initial state).
  package func publish(_ change: AuthStateChange) {
    subscribers.withLock { all in
      for (id, var subscriber) in all {
        if subscriber.ready {
          subscriber.continuation.yield(change)
        } else {
          subscriber.buffered.append(change)
          all[id] = subscriber
        }
      }
    }
  }
}
