import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Reloads the signed-in user from the server with `accounts:lookup` and stores it with
  /// the session.
  ///
  /// - Returns: the user: ID, email, display name, phone number, providers from
  ///   `providerUserInfo[]` (the token's sign-in provider when that is empty).
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` when the user was
  ///   deleted or disabled or the tokens were revoked (the session is cleared);
  ///   `.network` (kept), `.server`, `.malformedResponse`.
  public func refreshUser() async throws(UserBackendError) -> User {
    let (session, info) = try await withSessionToken { session in
      let response = try await client.send(
        LookupRequest(idToken: session.bearerToken), capability: .tokenRefresh,
        usesSession: true, secrets: [session.bearerToken])
      guard let info = response.users?.first(where: { $0.localId == session.user.id }) else {
        throw UserBackendError(
          .sessionExpired, backendCode: "USER_NOT_FOUND",
          message: "accounts:lookup returned no account for the session.")
      }
      return (session, info)
    }
    if info.disabled == true {
      try await revoke(session)
      throw UserBackendError(.sessionExpired, backendCode: "USER_DISABLED")
    }
    let claims = FirebaseIDTokenClaims.read(session.bearerToken)
    var user = FirebaseSessionBuilder.user(
      id: info.localId, email: info.email, displayName: info.displayName,
      phoneNumber: info.phoneNumber, providers: (info.providerUserInfo ?? []).map(\.providerId),
      claims: claims, defaultProvider: session.user.providers.first ?? "password")
    user.username = session.user.username
    try await storeUser(user, for: session)
    return user
  }

  /// Changes the signed-in user's password with `accounts:update`; the new ID token and
  /// refresh token replace the old ones (a password change revokes earlier tokens).
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "password")`, `.weakPassword`
  ///   before any request; `.notSignedIn`, `.sessionExpired`, `.server`
  ///   (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), `.network`, `.malformedResponse`.
  public func updatePassword(_ newPassword: String) async throws(UserBackendError) -> AuthSession {
    try CredentialValidation.validateNewPassword(newPassword)
    return try await update(secrets: [newPassword]) { idToken in
      UpdateAccountRequest(idToken: idToken, password: newPassword)
    }
  }

  /// Sets (or, with `nil` or an empty string, removes) the display name with
  /// `accounts:update`.
  ///
  /// - Throws: ``UserBackendError``: `.notSignedIn`, `.sessionExpired`, `.network`,
  ///   `.server`, `.malformedResponse`.
  public func updateDisplayName(_ displayName: String?) async throws(UserBackendError) -> User {
    let name = displayName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let session = try await update(secrets: []) { idToken in
      name.isEmpty
        ? UpdateAccountRequest(idToken: idToken, deleteAttribute: ["DISPLAY_NAME"])
        : UpdateAccountRequest(idToken: idToken, displayName: name)
    }
    return session.user
  }

  /// Sends `accounts:update`, then stores the changed user and any new tokens.
  private func update(
    secrets: [String], _ makeRequest: (String) -> UpdateAccountRequest
  ) async throws(UserBackendError) -> AuthSession {
    let (session, request, response) = try await withSessionToken { session in
      let request = makeRequest(session.bearerToken)
      let response = try await client.send(
        request, capability: .emailPassword, usesSession: true,
        secrets: secrets + [session.bearerToken])
      return (session, request, response)
    }
    var user = session.user
    if let name = response.displayName {
      user.displayName = name.isEmpty ? nil : name
    } else if request.deleteAttribute?.contains("DISPLAY_NAME") == true {
      user.displayName = nil
    } else if let name = request.displayName {
      user.displayName = name
    }
    if let email = response.email, !email.isEmpty { user.email = email }
    var renewed = session
    renewed.user = user
    if let idToken = response.idToken, let refreshToken = response.refreshToken {
      let claims = FirebaseIDTokenClaims.read(idToken)
      renewed = try FirebaseSessionBuilder.session(
        user: user,
        grant: FirebaseTokenGrant(
          idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn?.seconds),
        claims: claims, isNewUser: false, now: clock.now())
    }
    let stored = try await state.update { state in
      guard state.session?.user.id == session.user.id else { return false }
      state.session = renewed
      return true
    }
    if stored && renewed.bearerToken != session.bearerToken {
      state.publish(.tokenRefreshed, user: user)
    }
    return renewed
  }

  /// Replaces the stored user of `session`'s sign-in, if it is still stored.
  private func storeUser(_ user: User, for session: AuthSession) async throws(UserBackendError) {
    try await state.update { state in
      guard var stored = state.session, stored.user.id == session.user.id,
        stored.user != user
      else { return false }
      stored.user = user
      state.session = stored
      return true
    }
  }
}
