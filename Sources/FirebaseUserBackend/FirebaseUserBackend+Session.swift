import AdapterSupport
import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// The stored session with an ID token valid for at least ``refreshMargin`` seconds
  /// (by the injected clock), refreshing it first when needed (or when `forceRefresh`),
  /// through the ``SessionEngine``: single flight, under the store's exclusive lock.
  func freshSession(forceRefresh: Bool) async throws(UserBackendError) -> AuthSession {
    let clock = self.clock
    return try await state.validSession(
      forceRefresh: forceRefresh,
      needsRefresh: { $0.isExpired(at: clock.now(), margin: Self.refreshMargin) },
      exchange: { [self] current async throws(UserBackendError) -> SessionRefreshOutcome in
        try await exchange(current)
      })
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
    do {
      return try await Self.typed { () async throws -> T in try await call(session) }
    } catch  where error.code == .sessionExpired {
      let code = error.backendCode?.rawValue ?? ""
      guard code == "INVALID_ID_TOKEN" || code == "TOKEN_EXPIRED" else {
        try await revoke(session)
        throw error
      }
      let renewed = try await freshSession(forceRefresh: true)
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
