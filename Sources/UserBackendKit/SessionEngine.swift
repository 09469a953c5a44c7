import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an adapter's token exchange produced (see
/// ``SessionEngine/validSession(forceRefresh:needsRefresh:exchange:)``).
public enum SessionRefreshOutcome: Sendable {
  /// The server issued new tokens: the session to store.
  case renewed(AuthSession)
  /// The server definitively rejected the session (refresh token revoked, user deleted or
  /// disabled): the engine clears it, if it is still the stored one, publishes
  /// `.sessionRevoked` and throws `error`.
  case rejected(UserBackendError)
}

/// The session machinery every adapter composes, so that none keeps its own copy:
///
/// - **one mapping of store failures**: any error of the ``SessionStore`` becomes
///   ``UserBackendError`` `.misconfigured(setting: store.setting, reason: "cannot <read |
///   write | remove | lock> <store.location>: <problem>")`; errors that already are
///   ``UserBackendError``s pass through;
/// - **serialised read-modify-write** (``update(_:)``): the updates of one engine run one
///   at a time, under the store's update lock (``SessionStore/withExclusiveUpdate(_:)``,
///   shared with other processes and instances for a file store), so a late refresh
///   never resurrects a session that a sign-out removed, and a failed write leaves the
///   stored state as it was;
/// - **single-flight refresh** (``validSession(forceRefresh:needsRefresh:exchange:)``):
///   concurrent callers in this process share one exchange per refresh token; the
///   exchange runs under the store's exclusive lock (``SessionStore/withExclusiveAccess(_:)``,
///   shared with other processes for a file store), re-reads the stored session first
///   and uses it when another caller or process has already refreshed, and clears a
///   rejected session only when its refresh token is still the stored one;
/// - **changes that replace the tokens** (``withExclusiveSession(needsRefresh:exchange:_:)``):
///   a password or email change runs under the refresh lock, so no refresh of the tokens
///   it supersedes runs meanwhile;
/// - **auth-state broadcasting** (``authStateChanges``, ``publish(_:user:)``).
///
/// Sign-out and sign-in do not wait for a refresh in flight: a refresh that finishes
/// after the session was replaced stores nothing.
public final class SessionEngine: Sendable {
  /// The underlying store.
  public let store: any SessionStore
  private let gate = AsyncGate()
  private let refreshes = SingleFlight<String, AuthSession>()
  private let broadcaster = AuthStateBroadcaster()

  /// An engine over `store`.
  public init(store: any SessionStore) { self.store = store }

  // MARK: Reading

  /// The stored state.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the store cannot be read.
  public func load() async throws(UserBackendError) -> PersistedAuthState {
    do {
      return try await store.load()
    } catch {
      throw storeFailure(error, action: "read")
    }
  }

  /// The stored session, or `nil` when signed out.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the store cannot be read.
  public func session() async throws(UserBackendError) -> AuthSession? { try await load().session }

  /// The stored session.
  /// - Throws: ``UserBackendError`` `.notSignedIn`; `.misconfigured` (store).
  public func requireSession() async throws(UserBackendError) -> AuthSession {
    guard let session = try await session() else { throw UserBackendError(.notSignedIn) }
    return session
  }

  // MARK: Writing

  /// Loads the state, lets `transform` change it and, when `transform` returns `true`,
  /// stores it (an empty state clears the store), while no other update of this engine
  /// runs.
  ///
  /// Every state stored passes ``AnswerLimits/check(_:)-(PersistedAuthState)`` first.
  ///
  /// - Parameter replacingUnusable: for a write that replaces the session (a sign-in, a
  ///   sign-out): stored data the store cannot use (too large, corrupt, not private; see
  ///   ``SessionStore/loadForReplacement()``) reads as empty and is then replaced or
  ///   removed, even when `transform` changes nothing, instead of failing the write.
  /// - Returns: whether the state was stored.
  /// - Throws: ``UserBackendError`` `.misconfigured` on a store failure (the stored state
  ///   is then unchanged); `.malformedResponse` when the new state holds a server value
  ///   over ``AnswerLimits`` or is larger than the store keeps (nothing is stored); or
  ///   what `transform` throws (nothing is stored).
  @discardableResult
  public func update(
    replacingUnusable: Bool = false,
    _ transform: (inout PersistedAuthState) throws(UserBackendError) -> Bool
  ) async throws(UserBackendError) -> Bool {
    await gate.acquire()
    do {
      let stored = try await locallyUpdate(replacingUnusable: replacingUnusable, transform)
      await gate.release()
      return stored
    } catch {
      await gate.release()
      throw error
    }
  }

  /// The body of ``update(_:)``, run while holding the gate.
  private func locallyUpdate(
    replacingUnusable: Bool,
    _ transform: (inout PersistedAuthState) throws(UserBackendError) -> Bool
  )
    async throws(UserBackendError) -> Bool
  {
    var entered = false
    do {
      return try await store.withExclusiveUpdate {
        entered = true
        return try await storeUpdate(replacingUnusable: replacingUnusable, transform)
      }
    } catch {
      // Once entered, `storeUpdate` has mapped every failure to a `UserBackendError`,
      // which `storeFailure` passes through.
      if !entered, error is CancellationError {
        throw UserBackendError(.network(reason: "cancelled while waiting for the session lock"))
      }
      // Taking the update lock is the first step of a write.
      throw storeFailure(error, action: "write")
    }
  }

  /// One read-modify-write, under the store's update lock.
  private func storeUpdate(
    replacingUnusable: Bool,
    _ transform: (inout PersistedAuthState) throws(UserBackendError) -> Bool
  ) async throws(UserBackendError) -> Bool {
    var state: PersistedAuthState
    var discarded: String?
    if replacingUnusable {
      do {
        (state, discarded) = try await store.loadForReplacement()
      } catch {
        throw storeFailure(error, action: "read")
      }
    } else {
      state = try await load()
    }
    guard try transform(&state) || discarded != nil else { return false }
    try AnswerLimits.check(state)
    do {
      if state == .empty {
        try await store.clear()
      } else {
        try await store.save(state)
      }
    } catch {
      throw storeFailure(error, action: state == .empty ? "remove" : "write")
    }
    return true
  }

  /// Stores `session` for a new sign-in (replacing any other) and publishes `.signedIn`.
  ///
  /// - Parameters:
  ///   - session: the new session.
  ///   - completedVerificationID: a phone verification this sign-in completed; it is
  ///     removed when it is the pending one.
  /// - Throws: ``UserBackendError`` `.misconfigured` (store).
  public func signIn(_ session: AuthSession, completing completedVerificationID: String? = nil)
    async throws(UserBackendError)
  {
    try Self.checkTokens(session)
    try await update(replacingUnusable: true) { state in
      state.session = session
      if let completedVerificationID,
        state.pendingPhoneVerification?.verificationID == completedVerificationID
      {
        state.pendingPhoneVerification = nil
      }
      return true
    }
    publish(.signedIn, user: session.user)
  }

  /// Refuses a session whose tokens could not have come from a real server: an empty
  /// bearer token, or a bearer or refresh token with anything but visible ASCII (JWTs,
  /// Firebase refresh tokens and NCMB session tokens all are). A token with a control
  /// character would otherwise reach headers, files and terminals (`baas token`).
  ///
  /// - Throws: ``UserBackendError`` `.malformedResponse`, naming the token, never its value.
  static func checkTokens(_ session: AuthSession) throws(UserBackendError) {
    func usable(_ token: String) -> Bool {
      !token.isEmpty && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
    guard usable(session.bearerToken) else {
      throw UserBackendError(
        .malformedResponse(
          reason: "the server's bearer token is empty or has characters a token cannot have"))
    }
    if let refreshToken = session.refreshToken, !refreshToken.isEmpty, !usable(refreshToken) {
      throw UserBackendError(
        .malformedResponse(reason: "the server's refresh token has characters a token cannot have"))
    }
  }

  /// Removes the stored session (a pending phone verification stays) and publishes
  /// `.signedOut` when there was one.
  ///
  /// - Parameter session: when given, only this sign-in is removed (see
  ///   ``isSameSignIn(_:_:)``); another one stored meanwhile stays.
  /// - Returns: the removed session, `nil` when none was removed.
  /// - Throws: ``UserBackendError`` `.misconfigured` (store).
  @discardableResult
  public func signOut(_ session: AuthSession? = nil) async throws(UserBackendError) -> AuthSession?
  {
    var removed: AuthSession?
    try await update(replacingUnusable: true) { state in
      guard let stored = state.session else { return false }
      if let session, !Self.isSameSignIn(stored, session) { return false }
      removed = stored
      state.session = nil
      return true
    }
    if removed != nil { publish(.signedOut, user: nil) }
    return removed
  }

  /// Clears the stored session when it is still the sign-in of `session` (see
  /// ``isSameSignIn(_:_:)``: a session another caller or process has replaced is never
  /// cleared) and publishes `.sessionRevoked`.
  /// - Returns: whether it was cleared.
  /// - Throws: ``UserBackendError`` `.misconfigured` (store).
  @discardableResult
  public func revoke(_ session: AuthSession) async throws(UserBackendError) -> Bool {
    let cleared = try await update { state in
      guard let stored = state.session, Self.isSameSignIn(stored, session) else { return false }
      state.session = nil
      return true
    }
    if cleared { publish(.sessionRevoked, user: nil) }
    return cleared
  }

  /// Whether two sessions belong to the same sign-in: same user and same refresh token
  /// (same bearer token when there is no refresh token, as on NCMB).
  public static func isSameSignIn(_ a: AuthSession, _ b: AuthSession) -> Bool {
    a.user.id == b.user.id && (a.refreshToken ?? a.bearerToken) == (b.refreshToken ?? b.bearerToken)
  }

  // MARK: Refresh

  /// The stored session, refreshed first when `needsRefresh` says so or `forceRefresh`.
  ///
  /// Concurrent callers that saw the same refresh token share one run. The run holds the
  /// store's exclusive lock, re-reads the stored session and
  /// - returns it without an exchange when another caller, instance or process replaced
  ///   the session the caller saw and the new one does not need a refresh;
  /// - otherwise calls `exchange` with the stored session, stores a `.renewed` session
  ///   (only if the same sign-in is still stored) and publishes `.tokenRefreshed`, or, for
  ///   `.rejected`, clears the session and publishes `.sessionRevoked`.
  ///
  /// A session without a refresh token that needs one is cleared (`.sessionExpired`).
  /// - Throws: ``UserBackendError`` `.notSignedIn` (also when signed out during the
  ///   exchange); `.sessionExpired`; `.misconfigured` (store or lock); what `exchange`
  ///   throws (the session is kept).
  public func validSession(
    forceRefresh: Bool,
    needsRefresh: @escaping @Sendable (AuthSession) -> Bool,
    exchange:
      @escaping @Sendable (AuthSession) async throws(UserBackendError) -> SessionRefreshOutcome
  ) async throws(UserBackendError) -> AuthSession {
    let seen = try await requireSession()
    if !forceRefresh && !needsRefresh(seen) { return seen }
    do {
      return try await refreshes.run(key: seen.refreshToken ?? "") { [self] in
        try await exclusively { () async throws(UserBackendError) -> AuthSession in
          try await refresh(seen: seen, needsRefresh: needsRefresh, exchange: exchange)
        }
      }
    } catch let error as UserBackendError {
      throw error
    } catch {
      // `exclusively` maps every failure; only a cancelled shared task can land here.
      throw UserBackendError(.network(reason: "the token refresh was cancelled"))
    }
  }

  /// The body of a refresh, run under the store's exclusive lock.
  func refresh(
    seen: AuthSession, needsRefresh: (AuthSession) -> Bool,
    exchange: (AuthSession) async throws(UserBackendError) -> SessionRefreshOutcome
  ) async throws(UserBackendError) -> AuthSession {
    let current = try await requireSession()
    let replaced =
      current.bearerToken != seen.bearerToken || current.refreshToken != seen.refreshToken
    if replaced && !needsRefresh(current) { return current }
    guard let refreshToken = current.refreshToken, !refreshToken.isEmpty else {
      try await revoke(current)
      throw UserBackendError(
        .sessionExpired, message: "The stored session has no refresh token; sign in again.")
    }
    switch try await exchange(current) {
    case .rejected(let error):
      try await revoke(current)
      throw error
    case .renewed(let renewed):
      // A renewed session with unusable tokens is the server's fault: keep the stored one.
      try Self.checkTokens(renewed)
      let stored = try await update { state in
        guard let stored = state.session, Self.isSameSignIn(stored, current) else {
          return false
        }
        state.session = renewed
        return true
      }
      // Signed out (or another sign-in stored) while the exchange was in flight.
      guard stored else { return try await requireSession() }
      publish(.tokenRefreshed, user: renewed.user)
      return renewed
    }
  }

  /// Runs `body` under the store's exclusive lock; a failure to take the lock is a store
  /// failure (`"lock"`), cancellation while waiting is `.network`.
  func exclusively<T: Sendable>(_ body: () async throws(UserBackendError) -> T)
    async throws(UserBackendError) -> T
  {
    var entered = false
    do {
      return try await store.withExclusiveAccess {
        entered = true
        return try await body()
      }
    } catch {
      // Once entered, what `body` threw is a `UserBackendError`: passed through.
      if entered { throw storeFailure(error, action: "lock") }
      if error is CancellationError {
        throw UserBackendError(.network(reason: "cancelled while waiting for the session lock"))
      }
      throw storeFailure(error, action: "lock")
    }
  }

  // MARK: Auth state

  /// Sign-in state changes: the stored user first (`.initialState`), then every change
  /// this engine publishes.
  public var authStateChanges: AsyncStream<AuthStateChange> {
    broadcaster.stream { [self] in try? await session()?.user }
  }

  /// Delivers a change to every ``authStateChanges`` subscriber.
  public func publish(_ event: AuthStateChange.Event, user: User?) {
    broadcaster.publish(AuthStateChange(event, user: user))
  }
}
