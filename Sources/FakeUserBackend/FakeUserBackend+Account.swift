import AccountDatabase
import Foundation
import UserBackendKit

// Account management (issue 20): every operation checks its input with the shared
// `CredentialValidation` rules first (the adapters use the same ones), then the session,
// then the store.
//
// Recent sign-in: password and email changes and account deletion need a session whose
// sign-in (the refresh token family's authentication time, kept across refreshes) is at
// most `recentLoginWindow` seconds old by the store's clock; older is
// `.requiresRecentLogin` (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, Firebase's code).
// `reauthenticate(_:)` signs in again and so makes the session recent.
extension FakeUserBackend {
  /// The signed-in user fresh from the store; the stored session's user is updated.
  ///
  /// - Throws: ``UserBackendError`` `.notSignedIn`; `.sessionExpired` (`USER_NOT_FOUND`,
  ///   `USER_DISABLED`; the session is cleared); `.server`; `.misconfigured`.
  public func reload() async throws(UserBackendError) -> User {
    let session = try await callerSession()
    let record = try await currentRecord(of: session)
    try await replaceUser(in: session, with: record.user)
    return record.user
  }

  /// Changes the display name and the photo URL (`nil` keeps, `""` removes; checked by
  /// ``UserBackendKit/CredentialValidation/validateProfileUpdate(displayName:photoURL:)``).
  ///
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "displayName" | "photoURL")`,
  ///   `.notSignedIn`, `.sessionExpired`, `.server`.
  public func updateProfile(displayName: String?, photoURL: String?) async throws(UserBackendError)
    -> User
  {
    let update = try CredentialValidation.validateProfileUpdate(
      displayName: displayName, photoURL: photoURL)
    return try await withExclusiveCaller { session async throws(UserBackendError) -> User in
      let record = try await storeCall(for: session) { store in
        try store.updateProfile(
          userID: session.user.id, displayName: update.displayName, photoURL: update.photoURL)
      }
      try await replaceUser(in: session, with: record.user)
      return record.user
    }
  }

  /// Changes the password. Like Firebase, the change revokes the account's refresh tokens
  /// and the backend stores a new session (new ID and refresh tokens).
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "password")`, `.weakPassword`,
  ///   `.requiresRecentLogin` (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), `.notSignedIn`,
  ///   `.sessionExpired`, `.server`.
  public func updatePassword(_ newPassword: String) async throws(UserBackendError) {
    try CredentialValidation.validatePasswordChange(newPassword)
    try await withExclusiveCaller { session async throws(UserBackendError) in
      try await requireRecentSignIn(session)
      try await storeCall(for: session) { store in
        try store.updatePassword(userID: session.user.id, to: newPassword)
      }
      let record = try await currentRecord(of: session)
      let refreshToken = try await storeCall { store in
        try store.issueRefreshToken(userID: record.id)
      }
      let fresh = try await storeCall { store in try store.user(id: record.id) } ?? record
      try await replace(
        session, with: makeSession(for: fresh.user, refreshToken: refreshToken, isNewUser: false))
    }
  }

  /// Changes the email (canonical) and clears its verification; the session keeps its
  /// refresh token and gets an ID token with the new `email` claim.
  ///
  /// - Returns: the updated user.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "email")`, `.invalidEmail`,
  ///   `.accountAlreadyExists` (`EMAIL_EXISTS`), `.requiresRecentLogin`, `.notSignedIn`,
  ///   `.sessionExpired`, `.server`.
  public func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User {
    let email = try CredentialValidation.validateEmailChange(newEmail)
    return try await withExclusiveCaller { session async throws(UserBackendError) -> User in
      try await requireRecentSignIn(session)
      let record = try await storeCall(for: session) { store in
        try store.updateEmail(userID: session.user.id, to: email)
      }
      try await replace(
        session,
        with: makeSession(
          for: record.user, refreshToken: session.refreshToken ?? "", isNewUser: false))
      return record.user
    }
  }

  /// "Sends" a verification message: records a `VERIFY_EMAIL` code for the signed-in
  /// user's email (see ``outOfBandCodes(email:)``).
  ///
  /// - Throws: ``UserBackendError`` `.notSignedIn`, `.sessionExpired`,
  ///   `.invalidInput(field: "email")` (the user has no email), `.server`.
  public func sendEmailVerification() async throws(UserBackendError) {
    let session = try await callerSession()
    _ = try await storeCall(for: session) { store in
      try store.issueOutOfBandCode(.verifyEmail, userID: session.user.id)
    }
  }

  /// Completes an email verification with a recorded `VERIFY_EMAIL` code (single use, one
  /// hour). When the account is the signed-in one, the stored user shows it verified.
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "code")` (empty, unknown, used:
  ///   `INVALID_OOB_CODE`; expired: `EXPIRED_OOB_CODE`), `.userDisabled`, `.server`.
  public func applyEmailVerification(code: String) async throws(UserBackendError) {
    let code = try CredentialValidation.validateOutOfBandCode(code)
    let record = try await outOfBandCall { store in try store.applyEmailVerification(code: code) }
    if let session = try await sessions.session(), session.user.id == record.id {
      try await replaceUser(in: session, with: record.user)
    }
  }

  /// Completes a password reset with a recorded `PASSWORD_RESET` code and a new password.
  /// The account's refresh tokens are revoked (its sessions end at their next refresh).
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "code")` (`INVALID_OOB_CODE`,
  ///   `EXPIRED_OOB_CODE`), `.invalidInput(field: "password")`, `.weakPassword`,
  ///   `.userDisabled`, `.server`.
  public func confirmPasswordReset(code: String, newPassword: String)
    async throws(UserBackendError)
  {
    let code = try CredentialValidation.validateOutOfBandCode(code)
    try CredentialValidation.validatePasswordChange(newPassword)
    _ = try await outOfBandCall { store in
      try store.completePasswordReset(code: code, newPassword: newPassword)
    }
  }

  /// Signs the signed-in user in again with a password: a new sign-in (recent), same
  /// user. The stored session is used even when its ID token expired.
  ///
  /// - Returns: the new session (`isNewUser` `false`).
  /// - Throws: ``UserBackendError`` `.invalidInput`, `.invalidEmail`, `.notSignedIn`,
  ///   `.invalidCredentials` (`INVALID_LOGIN_CREDENTIALS`), `.userDisabled`,
  ///   `.userMismatch` (`USER_MISMATCH`: the credential is another account's), `.server`.
  public func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: false, capabilities: capabilities)
    let session = try await sessions.requireSession()
    let record = try await authenticate(valid)
    guard record.id == session.user.id else {
      throw UserBackendError(
        .userMismatch, backendCode: "USER_MISMATCH",
        message: "The credential belongs to another account than the signed-in user.")
    }
    return try await startSession(for: record, isNewUser: false)
  }

  /// Links a password credential (email or user name) to the signed-in anonymous user:
  /// same user ID, provider `"password"`, not anonymous; a new session is stored.
  ///
  /// - Returns: the new session (`isNewUser` `false`).
  /// - Throws: ``UserBackendError`` `.invalidInput`, `.invalidEmail`, `.weakPassword`,
  ///   `.accountAlreadyExists` (`EMAIL_EXISTS`, `USERNAME_EXISTS`),
  ///   `.invalidInput(field: "credential")` (the user is not anonymous), `.notSignedIn`,
  ///   `.sessionExpired`, `.server`.
  public func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: true, capabilities: capabilities)
    let session = try await callerSession()
    var email: String?
    var username: String?
    switch valid.identifier {
    case .email(let value): email = value
    case .username(let value): username = value
    }
    let record: UserRecord
    let (linkedEmail, linkedUsername) = (email, username)
    do {
      record = try await offPool { store in
        try store.linkPassword(
          userID: session.user.id, email: linkedEmail, username: linkedUsername,
          password: valid.password)
      }
    } catch UserStoreError.notAnonymous {
      throw UserBackendError(
        .invalidInput(field: "credential", reason: "the signed-in user is not anonymous"))
    } catch UserStoreError.duplicate(let field) {
      throw UserBackendError(
        .accountAlreadyExists, backendCode: field == "email" ? "EMAIL_EXISTS" : "USERNAME_EXISTS",
        message: "Another account already uses this \(field == "email" ? "email" : "user name").")
    } catch UserStoreError.userNotFound {
      try await sessions.revoke(session)
      throw UserBackendError(.sessionExpired, backendCode: "USER_NOT_FOUND")
    } catch {
      throw Self.mapped(error)
    }
    return try await startSession(for: record, isNewUser: false)
  }

  /// The out-of-band codes this backend "sent" and that are not used yet, oldest first;
  /// only those for `email` (any form of it) when given. Tests and the contract harness
  /// read password-reset and verification codes here.
  /// - Throws: ``UserBackendError`` `.server` (`DATABASE_ERROR`).
  public func outOfBandCodes(email: String? = nil) throws(UserBackendError) -> [OutOfBandCode] {
    try Self.storeCall { try store.outOfBandCodes(email: email) }
  }

  // MARK: - Helpers

  /// `.requiresRecentLogin` unless the session's sign-in is at most
  /// ``recentLoginWindow`` seconds old.
  func requireRecentSignIn(_ session: AuthSession) async throws(UserBackendError) {
    let authenticatedAt = try await storeCall { store in
      try store.authenticationTime(refreshToken: session.refreshToken ?? "")
    }
    guard let authenticatedAt,
      clock.now().timeIntervalSince(authenticatedAt) <= recentLoginWindow
    else {
      throw UserBackendError(
        .requiresRecentLogin, backendCode: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN",
        message: "This change needs a sign-in less than \(Int(recentLoginWindow)) seconds old; "
          + "reauthenticate and retry.")
    }
  }

  /// Records a `PASSWORD_RESET` code when an account has `email` (nothing otherwise, and
  /// no error, so the answer does not reveal which emails have accounts).
  func issuePasswordResetCode(email: String) async throws(UserBackendError) {
    guard let user = try await storeCall({ store in try store.user(email: email) }), !user.disabled
    else { return }
    _ = try await storeCall { store in try store.issueOutOfBandCode(.passwordReset, userID: user.id)
    }
  }

  /// The account of `session` from the store; a deleted or disabled account clears the
  /// session (`.sessionExpired`).
  private func currentRecord(of session: AuthSession) async throws(UserBackendError)
    -> UserRecord
  {
    let record = try await storeCall { store in try store.user(id: session.user.id) }
    guard let record, !record.disabled else {
      try await sessions.revoke(session)
      throw UserBackendError(
        .sessionExpired, backendCode: record == nil ? "USER_NOT_FOUND" : "USER_DISABLED")
    }
    return record
  }

  /// Runs a store call for the account of `session`: an unknown account clears the
  /// session (`.sessionExpired`), `EMAIL_EXISTS` is `.accountAlreadyExists`.
  private func storeCall<T: Sendable>(
    for session: AuthSession, _ body: @escaping @Sendable (UserStore) throws -> T
  ) async throws(UserBackendError) -> T {
    do {
      return try await offPool(body)
    } catch UserStoreError.userNotFound {
      try await sessions.revoke(session)
      throw UserBackendError(.sessionExpired, backendCode: "USER_NOT_FOUND")
    } catch UserStoreError.duplicate(field: "email") {
      throw UserBackendError(
        .accountAlreadyExists, backendCode: "EMAIL_EXISTS",
        message: "Another account already uses this email address.")
    } catch {
      throw Self.mapped(error)
    }
  }

  /// Runs a store call that uses an out-of-band code, mapping the code errors.
  private func outOfBandCall<T: Sendable>(_ body: @escaping @Sendable (UserStore) throws -> T)
    async throws(UserBackendError) -> T
  {
    do {
      return try await offPool(body)
    } catch UserStoreError.invalidOutOfBandCode {
      throw UserBackendError(
        .invalidInput(field: "code", reason: "is unknown or was already used"),
        backendCode: "INVALID_OOB_CODE")
    } catch UserStoreError.outOfBandCodeExpired {
      throw UserBackendError(
        .invalidInput(field: "code", reason: "has expired"), backendCode: "EXPIRED_OOB_CODE")
    } catch {
      throw Self.mapped(error)
    }
  }

  /// Stores `user` in the session when `session` is still the stored sign-in.
  private func replaceUser(in session: AuthSession, with user: User)
    async throws(UserBackendError)
  {
    try await sessions.update { state in
      guard var stored = state.session, SessionEngine.isSameSignIn(stored, session) else {
        return false
      }
      stored.user = user
      state.session = stored
      return true
    }
  }

  /// Stores `replacement` (new tokens of the same user) when `session` is still the
  /// stored sign-in, and publishes `.tokenRefreshed`.
  private func replace(_ session: AuthSession, with replacement: AuthSession)
    async throws(UserBackendError)
  {
    let stored = try await sessions.update { state in
      guard let stored = state.session, SessionEngine.isSameSignIn(stored, session) else {
        return false
      }
      state.session = replacement
      return true
    }
    if stored { sessions.publish(.tokenRefreshed, user: replacement.user) }
  }
}
