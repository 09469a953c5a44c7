import AdapterSupport
import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// The stored session with an ID token valid for at least ``refreshMargin`` seconds
  /// (by the injected clock), refreshing it first when needed (or when `forceRefresh`),
  /// through the ``SessionEngine``: single flight, under the store's exclusive lock.
  func freshSession(forceRefresh: Bool) async throws(UserBackendError) -> AuthSession {
    try await state.validSession(
      forceRefresh: forceRefresh, needsRefresh: needsRefresh, exchange: exchanger)
  }

  /// Whether a session's ID token expires within ``refreshMargin`` seconds (by the
  /// injected clock).
  private var needsRefresh: @Sendable (AuthSession) -> Bool {
    let clock = self.clock
    return { $0.isExpired(at: clock.now(), margin: Self.refreshMargin) }
  }

  /// ``exchange(_:)`` as the session engine takes it.
  private var exchanger:
    @Sendable (AuthSession) async throws(UserBackendError) -> SessionRefreshOutcome
  {
    { [self] current async throws(UserBackendError) -> SessionRefreshOutcome in
      try await exchange(current)
    }
  }

  /// One Secure Token exchange of `current`'s refresh token. A definitive rejection
  /// (`.sessionExpired`) is `.rejected`: the engine clears the session. An answer whose
  /// `user_id` or ID token `sub` is another user's, or whose ID token cannot be read, is
  /// `.malformedResponse` and the session is kept
  /// (``FirebaseSessionBuilder/checkOwner(userID:answered:idToken:projectID:answer:)``).
  private func exchange(_ current: AuthSession) async throws(UserBackendError)
    -> SessionRefreshOutcome
  {
    let refreshToken = current.refreshToken ?? ""
    let response: RefreshTokenResponse
    do {
      response = try await client.send(
        RefreshTokenRequest(refreshToken: refreshToken), capability: .tokenRefresh,
        usesSession: true, secrets: [refreshToken, current.bearerToken])
    } catch  where error.code == .sessionExpired {
      return .rejected(error)
    }
    let grant = FirebaseTokenGrant(
      idToken: response.idToken, refreshToken: response.refreshToken,
      expiresIn: response.expiresIn?.seconds)
    // Tokens of another user (or unreadable ones) are never stored under this one; the
    // session stays.
    let claims = try FirebaseSessionBuilder.checkOwner(
      userID: current.user.id, answered: response.userID, idToken: grant.idToken,
      projectID: configuration.projectID, answer: "Secure Token refresh")
    // A stored profile field over the client's limit (an older session file) is dropped.
    var user = AnswerLimits.keepingUsableProfile(current.user)
    if let email = claims?.email, !email.isEmpty { user.email = email }
    if let phone = claims?.phoneNumber, !phone.isEmpty { user.phoneNumber = phone }
    return .renewed(
      try FirebaseSessionBuilder.session(
        user: user, grant: grant, claims: claims, isNewUser: false, now: clock.now()))
  }

  /// Runs `call` with a fresh ID token. When the server refuses that ID token
  /// (`INVALID_ID_TOKEN`, `TOKEN_EXPIRED`) it forces one refresh and retries once; a
  /// definitive rejection clears the session and throws `.sessionExpired`.
  func withSessionToken<T>(
    _ call: (AuthSession) async throws -> T
  ) async throws(UserBackendError) -> T {
    let session = try await freshSession(forceRefresh: false)
    return try await retryingOnce(
      session,
      refresh: { () async throws(UserBackendError) in
        try await freshSession(forceRefresh: true)
      }, call)
  }

  /// ``withSessionToken(_:)`` for a change whose answer replaces the tokens or revokes
  /// the old ones: `call` runs, and must store its result, under the session engine's
  /// refresh lock (``UserBackendKit/SessionEngine/withExclusiveSession(needsRefresh:exchange:_:)``),
  /// so no refresh of the tokens it supersedes runs meanwhile, in this process or another
  /// sharing the session file.
  func withExclusiveSessionToken<T: Sendable>(
    _ call: (AuthSession) async throws -> T
  ) async throws(UserBackendError) -> T {
    try await state.withExclusiveSession(needsRefresh: needsRefresh, exchange: exchanger) {
      session, refresh async throws(UserBackendError) -> T in
      try await retryingOnce(session, refresh: refresh, call)
    }
  }

  /// Runs `call` with `session`; when the server refuses its ID token, once more with the
  /// session `refresh` returns. Another `.sessionExpired` clears the session.
  private func retryingOnce<T>(
    _ session: AuthSession, refresh: () async throws(UserBackendError) -> AuthSession,
    _ call: (AuthSession) async throws -> T
  ) async throws(UserBackendError) -> T {
    do {
      return try await Self.typed { () async throws -> T in try await call(session) }
    } catch  where error.code == .sessionExpired {
      let code = error.backendCode?.rawValue ?? ""
      guard code == "INVALID_ID_TOKEN" || code == "TOKEN_EXPIRED" else {
        try await revoke(session)
        throw error
      }
      let renewed = try await refresh()
      do {
        return try await Self.typed { () async throws -> T in try await call(renewed) }
      } catch  where error.code == .sessionExpired {
        try await revoke(renewed)
        throw error
      }
    }
  }

  /// Runs `body`, whose calls throw ``UserBackendError`` only (the closures passed to
  /// ``withSessionToken(_:)`` wrap `client.send`), as a typed-throws call. Anything else
  /// would be a transport failure and becomes `.network`.
  private static func typed<T>(
    _ body: () async throws -> T
  ) async throws(UserBackendError) -> T {
    do {
      return try await body()
    } catch {
      throw error as? UserBackendError ?? UserBackendError(transportFailure: error)
    }
  }

  /// Clears the stored session if it is still the sign-in `session` belongs to (same
  /// user and refresh token), keeping a pending phone verification, and publishes
  /// `.sessionRevoked`.
  func revoke(_ session: AuthSession) async throws(UserBackendError) {
    try await state.revoke(session)
  }
}
