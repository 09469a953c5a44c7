import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Reloads the signed-in user from the server with `accounts:lookup` and stores it with
  /// the session (the tokens stay).
  ///
  /// - Returns: the user: ID, email, `emailVerified`, display name, photo URL, phone
  ///   number, providers from `providerUserInfo[]` (the token's sign-in provider when that
  ///   is empty), `createdAt` and `lastSignInAt` (`createdAt` / `lastLoginAt`,
  ///   milliseconds since 1970). A `photoUrl` that is not a URL (another client may store
  ///   any text) becomes `nil`.
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` when the user was
  ///   deleted or disabled or the tokens were revoked (the session is cleared);
  ///   `.malformedResponse` for a `createdAt` or `lastLoginAt` that is not a number of
  ///   milliseconds (the stored user is unchanged), or an answer whose records are all
  ///   another user's (the session is kept); `.network` (kept), `.server`.
  public func reload() async throws(UserBackendError) -> User {
    let (session, info) = try await withSessionToken { session in
      let response = try await client.send(
        LookupRequest(idToken: session.bearerToken), capability: .userReload,
        usesSession: true, secrets: [session.bearerToken])
      let users = response.users ?? []
      guard let info = users.first(where: { $0.localId == session.user.id }) else {
        // Records of other accounts are the server's fault, not a sign that this one is
        // gone: the session stays, as for every other answer naming another user. Only
        // an answer with no record at all reads as the account's removal.
        guard users.isEmpty else {
          throw UserBackendError(
            .malformedResponse(reason: "accounts:lookup answered for another user"))
        }
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
    user.emailVerified = info.emailVerified
    user.photoURL = FirebaseSessionBuilder.photoURL(info.photoUrl)
    user.createdAt = info.createdAt?.date
    user.lastSignInAt = info.lastLoginAt?.date
    try await storeUser(user, for: session)
    return user
  }

  /// Changes the display name and the photo URL with `accounts:update`: a value is sent
  /// as `displayName` / `photoUrl`, an empty string as `deleteAttribute: ["DISPLAY_NAME"]`
  /// / `["PHOTO_URL"]`, `nil` not at all. Tokens the answer carries replace the stored
  /// ones.
  ///
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "displayName" | "photoURL")`
  ///   before any request (see ``UserBackendKit/CredentialValidation/validateProfileUpdate(displayName:photoURL:)``);
  ///   `.notSignedIn`, `.sessionExpired`, `.network`, `.server`, `.malformedResponse`.
  public func updateProfile(displayName: String?, photoURL: String?)
    async throws(UserBackendError) -> User
  {
    let change = try CredentialValidation.validateProfileUpdate(
      displayName: displayName, photoURL: photoURL)
    var deleted: [String] = []
    if change.displayName == .remove { deleted.append("DISPLAY_NAME") }
    if change.photoURL == .remove { deleted.append("PHOTO_URL") }
    let session = try await update(capability: .profileUpdate, secrets: []) { idToken in
      UpdateAccountRequest(
        idToken: idToken, displayName: change.displayName.value,
        photoUrl: change.photoURL.value, deleteAttribute: deleted.isEmpty ? nil : deleted)
    }
    return session.user
  }

  /// Changes the signed-in user's password with `accounts:update` (`password`,
  /// `returnSecureToken: true`). Firebase revokes the earlier tokens, so the new ID token
  /// and refresh token the answer carries replace them in the session store (another
  /// process or a restart sees them).
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "password")`, `.weakPassword`
  ///   before any request; `.requiresRecentLogin` (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`; the
  ///   session is kept), `.weakPassword` (server policy), `.notSignedIn`,
  ///   `.sessionExpired`, `.network`, `.server`, `.malformedResponse`.
  public func updatePassword(_ newPassword: String) async throws(UserBackendError) {
    try CredentialValidation.validatePasswordChange(newPassword)
    _ = try await update(capability: .passwordUpdate, secrets: [newPassword]) { idToken in
      UpdateAccountRequest(idToken: idToken, password: newPassword)
    }
  }

  /// Changes the signed-in user's email with `accounts:update` (`email`,
  /// `returnSecureToken: true`); the new tokens replace the stored ones.
  ///
  /// Projects with email enumeration protection (the default for projects created since
  /// September 2023) refuse this with `OPERATION_NOT_ALLOWED` and require the new
  /// address to be verified first (`sendOobCode` `VERIFY_AND_CHANGE_EMAIL`), which this
  /// adapter does not offer: that answer is `.unsupported(capability: .emailUpdate)` with a
  /// message saying so.
  ///
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "email")`, `.invalidEmail`
  ///   before any request; `.accountAlreadyExists` (`EMAIL_EXISTS`),
  ///   `.requiresRecentLogin` (session kept), `.unsupported(capability: .emailUpdate)`,
  ///   `.notSignedIn`, `.sessionExpired`, `.network`, `.server`, `.malformedResponse`.
  public func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User {
    let email = try CredentialValidation.validateEmailChange(newEmail)
    do {
      return try await update(capability: .emailUpdate, secrets: []) { idToken in
        UpdateAccountRequest(idToken: idToken, email: email)
      }.user
    } catch  where error.backendCode == "OPERATION_NOT_ALLOWED" {
      throw UserBackendError(
        .unsupported(capability: .emailUpdate), backendCode: "OPERATION_NOT_ALLOWED",
        message: "The project refuses a direct email change (email enumeration protection "
          + "requires verifying the new address first, which this adapter does not offer)"
          + (error.message.isEmpty ? "." : ": \(error.message)"))
    }
  }

  /// Sends `accounts:update` for the signed-in user, then stores the changed user and
  /// any new tokens (when the same sign-in is still stored) and publishes
  /// `.tokenRefreshed` when the tokens changed. An answer for another user (its `localId`
  /// or its ID token's `sub`) is `.malformedResponse` and nothing is stored.
  ///
  /// The call and the store run under the session engine's refresh lock
  /// (``withExclusiveSessionToken(_:)``): a password or email change revokes the old
  /// refresh token, so a refresh of it running meanwhile would clear the session, and a
  /// profile answer without tokens must not put back tokens a refresh has replaced.
  ///
  /// - Returns: the session after the change.
  func update(
    capability: Capability, secrets: [String],
    _ makeRequest: (String) -> UpdateAccountRequest
  ) async throws(UserBackendError) -> AuthSession {
    try await withExclusiveSessionToken { session async throws(UserBackendError) -> AuthSession in
      let request = makeRequest(session.bearerToken)
      let response = try await client.send(
        request, capability: capability, usesSession: true,
        secrets: secrets + [session.bearerToken])
      let claims = try FirebaseSessionBuilder.checkOwner(
        userID: session.user.id, answered: response.localId, idToken: response.idToken,
        projectID: configuration.projectID, answer: "accounts:update")
      let user = FirebaseSessionBuilder.user(
        afterUpdate: response, request: request, previous: session.user)
      var renewed = session
      renewed.user = user
      renewed.isNewUser = false
      if let idToken = response.idToken, let refreshToken = response.refreshToken {
        renewed = try FirebaseSessionBuilder.session(
          user: user,
          grant: FirebaseTokenGrant(
            idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn?.seconds),
          claims: claims, isNewUser: false, now: clock.now())
      }
      try await store(renewed, replacing: session)
      return renewed
    }
  }

  /// Stores `renewed` when the user of `session` is still the signed-in one, and
  /// publishes `.tokenRefreshed` when the tokens changed.
  func store(_ renewed: AuthSession, replacing session: AuthSession)
    async throws(UserBackendError)
  {
    let stored = try await state.update { state in
      guard state.session?.user.id == session.user.id else { return false }
      state.session = renewed
      return true
    }
    if stored && renewed.bearerToken != session.bearerToken {
      state.publish(.tokenRefreshed, user: renewed.user)
    }
  }

  /// Replaces the stored user of `session`'s sign-in, if it is still stored.
  func storeUser(_ user: User, for session: AuthSession) async throws(UserBackendError) {
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
