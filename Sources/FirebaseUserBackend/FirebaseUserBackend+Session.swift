import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// The stored session with an ID token valid for at least ``refreshMargin`` seconds,
  /// refreshing it first when needed (or when `forceRefresh`).
  func freshSession(forceRefresh: Bool) async throws -> AuthSession {
    guard let session = try await state.load().session else {
      throw UserBackendError(.notSignedIn)
    }
    if !forceRefresh && !session.isExpired(at: clock.now(), margin: Self.refreshMargin) {
      return session
    }
    guard let refreshToken = session.refreshToken, !refreshToken.isEmpty else {
      try await revoke(session)
      throw UserBackendError(
        .sessionExpired, message: "The stored session has no refresh token; sign in again.")
    }
    // Single flight keyed by the refresh token: concurrent callers share one request.
    return try await refreshes.run(key: refreshToken) { [self] in
      try await refresh(seen: session, refreshToken: refreshToken)
    }
  }

  /// One Secure Token exchange for the session `seen`, unless another caller already
  /// replaced that ID token (then the stored session is returned without a request).
  private func refresh(seen: AuthSession, refreshToken: String) async throws -> AuthSession {
    guard let current = try await state.load().session else {
      throw UserBackendError(.notSignedIn)
    }
    if current.bearerToken != seen.bearerToken { return current }
    let response: RefreshTokenResponse
    do {
      response = try await client.send(
        RefreshTokenRequest(refreshToken: refreshToken), capability: .tokenRefresh,
        usesSession: true, secrets: [refreshToken, seen.bearerToken])
    } catch let error as UserBackendError where error.code == .sessionExpired {
      try await revoke(seen)
      throw error
    }
    let grant = FirebaseTokenGrant(
      idToken: response.idToken, refreshToken: response.refreshToken,
      expiresIn: response.expiresIn?.seconds)
    let claims = FirebaseIDTokenClaims.read(grant.idToken)
    var user = current.user
    if let email = claims?.email, !email.isEmpty { user.email = email }
    if let phone = claims?.phoneNumber, !phone.isEmpty { user.phoneNumber = phone }
    let renewed = try FirebaseSessionBuilder.session(
      user: user, grant: grant, claims: claims, isNewUser: false, now: clock.now())
    let stored = try await state.update { state in
      guard let session = state.session, session.bearerToken == seen.bearerToken else {
        return false
      }
      state.session = renewed
      return true
    }
    guard stored else {
      // Signed out (or another user signed in) while the request was in flight.
      guard let now = try await state.load().session else {
        throw UserBackendError(.notSignedIn)
      }
      return now
    }
    broadcaster.publish(AuthStateChange(.tokenRefreshed, user: renewed.user))
    return renewed
  }

  /// Runs `call` with a fresh ID token. When the server refuses that ID token
  /// (`INVALID_ID_TOKEN`, `TOKEN_EXPIRED`) it forces one refresh and retries once; a
  /// definitive rejection clears the session and throws `.sessionExpired`.
  func withSessionToken<T>(
    _ call: (AuthSession) async throws -> T
  ) async throws -> T {
    let session = try await freshSession(forceRefresh: false)
    do {
      return try await call(session)
    } catch let error as UserBackendError where error.code == .sessionExpired {
      let code = error.backendCode?.rawValue ?? ""
      guard code == "INVALID_ID_TOKEN" || code == "TOKEN_EXPIRED" else {
        try await revoke(session)
        throw error
      }
      let renewed = try await freshSession(forceRefresh: true)
      do {
        return try await call(renewed)
      } catch let error as UserBackendError where error.code == .sessionExpired {
        try await revoke(renewed)
        throw error
      }
    }
  }

  /// Clears the stored session if it is still the sign-in `session` belongs to (same
  /// user and refresh token), keeping a pending phone verification, and publishes
  /// `.sessionRevoked`.
  func revoke(_ session: AuthSession) async throws {
    let cleared = try await state.update { state in
      guard let stored = state.session, stored.user.id == session.user.id,
        stored.refreshToken == session.refreshToken
      else { return false }
      state.session = nil
      return true
    }
    if cleared { broadcaster.publish(AuthStateChange(.sessionRevoked, user: nil)) }
  }
}
