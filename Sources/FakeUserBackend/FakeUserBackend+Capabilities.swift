import AccountDatabase
import Foundation
import UserBackendKit

extension FakeUserBackend {
  // MARK: - Anonymous

  /// Creates an anonymous account (provider `"anonymous"`) and signs it in; `isNewUser`
  /// is `true`.
  /// - Throws: ``UserBackendError`` `.server` (`DATABASE_ERROR`).
  public func signInAnonymously() async throws(UserBackendError) -> AuthSession {
    let record = try await storeCall { store in
      try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    }
    return try await startSession(for: record, isNewUser: true)
  }

  // MARK: - Phone

  /// "Sends" a 6-digit code to an E.164 number: the store keeps it (see
  /// ``UserStore/pendingPhoneVerifications()``) and the pending verification is saved in
  /// the session store, so a restarted backend can finish the flow.
  ///
  /// - Returns: the verification ID.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "phoneNumber")` unless the number
  ///   is `+` and 8–15 digits; `.server`; `.misconfigured` (session store).
  public func startPhoneVerification(phoneNumber: String) async throws(UserBackendError) -> String {
    let number = try CredentialValidation.validatePhoneNumber(phoneNumber)
    let verification = try await storeCall { store in
      try store.startPhoneVerification(phoneNumber: number)
    }
    let pending = PendingPhoneVerification(
      verificationID: verification.verificationID, phoneNumber: verification.phoneNumber,
      requestedAt: clock.now())
    try await sessions.update { state in
      state.pendingPhoneVerification = pending
      return true
    }
    return verification.verificationID
  }

  /// The phone verification waiting for its code, from the session store (it survives a
  /// restart), or `nil`.
  /// - Throws: `.misconfigured` when the session store cannot be read.
  public func pendingPhoneVerification() async throws(UserBackendError) -> PendingPhoneVerification?
  {
    try await sessions.load().pendingPhoneVerification
  }

  /// Completes phone sign-in: signs in the account with the verified number, creating it
  /// (provider `"phone"`, `isNewUser` `true`) when there is none. Clears the pending
  /// verification.
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "verificationID")` when empty,
  ///   `.invalidInput(field: "code")` unless 6 digits; `.invalidCredentials` with
  ///   `INVALID_CODE` (wrong code; the verification stays pending), `CODE_EXPIRED` or
  ///   `INVALID_VERIFICATION_ID` (unknown or already used); `.userDisabled`; `.server`.
  public func signIn(verificationID: String, code: String) async throws(UserBackendError)
    -> AuthSession
  {
    let (verificationID, code) = try CredentialValidation.validatePhoneSignIn(
      verificationID: verificationID, code: code)
    // The fake's own rule: its codes are 6 digits.
    guard code.count == 6 else {
      throw UserBackendError(.invalidInput(field: "code", reason: "must be 6 digits"))
    }
    let phoneNumber: String
    do {
      phoneNumber = try await offPool { store in
        try store.completePhoneVerification(verificationID: verificationID, code: code)
      }
    } catch UserStoreError.invalidVerificationCode {
      throw UserBackendError(
        .invalidCredentials, backendCode: "INVALID_CODE",
        message: UserBackendError.smsCodeRejectedMessage)
    } catch UserStoreError.verificationExpired {
      throw UserBackendError(
        .invalidCredentials, backendCode: "CODE_EXPIRED",
        message: UserBackendError.smsCodeRejectedMessage)
    } catch UserStoreError.unknownVerification {
      throw UserBackendError(
        .invalidCredentials, backendCode: "INVALID_VERIFICATION_ID",
        message: UserBackendError.smsCodeRejectedMessage)
    } catch {
      throw Self.mapped(error)
    }
    let (record, isNew) = try await findOrCreate(
      lookup: { store in try store.user(phoneNumber: phoneNumber) },
      create: NewUser(phoneNumber: phoneNumber, provider: "phone"))
    guard !record.disabled else { throw Self.disabled }
    return try await startSession(for: record, isNewUser: isNew, completing: verificationID)
  }

  // MARK: - Identity provider

  /// Signs in with an identity provider's OpenID ID token. The fake does not verify the
  /// token's signature (unsigned test tokens are expected); it requires a `sub` claim, an
  /// `exp` (when present) in the future, and a `nonce` claim equal to
  /// `Crypto.sha256Hex(rawNonce)` (both absent is accepted). The account is found by
  /// (provider, `sub`) or created with the token's `email` claim; `isNewUser` tells which.
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "provider" | "idToken")` when
  ///   empty; `.invalidCredentials` with `INVALID_IDP_RESPONSE` (not a JWT, no `sub`,
  ///   expired) or `MISSING_OR_INVALID_NONCE`; `.accountAlreadyExists` (`EMAIL_EXISTS`:
  ///   the email belongs to another account); `.userDisabled`; `.server`.
  public func signIn(with credential: IdentityProviderCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let credential = try CredentialValidation.validate(credential)
    let provider = credential.provider
    let token: JSONWebToken
    do {
      token = try JSONWebToken(parsing: credential.idToken)
    } catch {
      throw Self.idpError("The identity provider's ID token is not a JWT.")
    }
    guard let subject = token.stringClaim("sub"), !subject.isEmpty else {
      throw Self.idpError("The identity provider's ID token has no sub claim.")
    }
    if let expiresAt = token.expiresAt, expiresAt <= clock.now() {
      throw Self.idpError("The identity provider's ID token has expired.")
    }
    try Self.checkNonce(claim: token.stringClaim("nonce"), rawNonce: credential.rawNonce)
    let email = token.stringClaim("email").flatMap { try? CredentialValidation.validateEmail($0) }
    let (record, isNew): (UserRecord, Bool)
    do {
      (record, isNew) = try await findOrCreate(
        lookup: { store in try store.user(provider: provider, subject: subject) },
        create: NewUser(email: email, provider: provider, providerSubject: subject))
    } catch  where error.backendCode == "EMAIL_EXISTS" {
      throw UserBackendError(
        .accountAlreadyExists, backendCode: "EMAIL_EXISTS",
        message: "Another account already uses this provider's email address.")
    }
    guard !record.disabled else { throw Self.disabled }
    return try await startSession(for: record, isNewUser: isNew)
  }

  /// Throws unless the token's `nonce` claim is the SHA-256 hex of `rawNonce`.
  static func checkNonce(claim: String?, rawNonce: String?) throws(UserBackendError) {
    switch (claim, rawNonce) {
    case (nil, nil):
      return
    case (let claim?, let rawNonce?):
      let expected = Nonce.sha256Hex(rawNonce)
      guard Crypto.constantTimeEquals(Data(expected.utf8), Data(claim.lowercased().utf8)) else {
        throw nonceError("The ID token's nonce claim is not the SHA-256 of the raw nonce given.")
      }
    case (nil, _?):
      throw nonceError("A raw nonce was given but the ID token has no nonce claim.")
    case (_?, nil):
      throw nonceError("The ID token has a nonce claim but no raw nonce was given.")
    }
  }

  static func idpError(_ message: String) -> UserBackendError {
    UserBackendError(.invalidCredentials, backendCode: "INVALID_IDP_RESPONSE", message: message)
  }

  static func nonceError(_ message: String) -> UserBackendError {
    UserBackendError(
      .invalidCredentials, backendCode: "MISSING_OR_INVALID_NONCE", message: message)
  }

  // MARK: - Password reset and deletion

  /// Records a password-reset request in the store (see
  /// ``UserStore/passwordResetRequests()``) and, when an enabled account has the email, a
  /// `PASSWORD_RESET` code (see ``outOfBandCodes(email:)``). Succeeds for unknown
  /// addresses too, so the answer does not reveal which emails have accounts.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "email")`, `.invalidEmail`,
  ///   `.server`.
  public func sendPasswordReset(email: String) async throws(UserBackendError) {
    let canonical = try CredentialValidation.validateEmail(email)
    try await storeCall { store in try store.recordPasswordResetRequest(email: canonical) }
    try await issuePasswordResetCode(email: canonical)
  }

  /// Deletes the signed-in account (and its tokens), clears the session and publishes
  /// `.signedOut`. The session is checked first (refreshed when expired), so a revoked
  /// session cannot delete; its sign-in must be recent (``recentLoginWindow``).
  /// - Throws: ``UserBackendError`` `.notSignedIn`, `.sessionExpired`,
  ///   `.requiresRecentLogin`, `.server`.
  public func deleteAccount() async throws(UserBackendError) {
    let session = try await callerSession()
    try await requireRecentSignIn(session)
    _ = try await storeCall { store in try store.deleteUser(id: session.user.id) }
    try await sessions.signOut(session)
  }

  // MARK: - Helpers

  /// The account `lookup` finds, else a new one from `create`; a concurrent creation of
  /// the same account (the UNIQUE index refuses ours) falls back to the lookup. One hop
  /// off the cooperative pool for a file store.
  func findOrCreate(
    lookup: @escaping @Sendable (UserStore) throws -> UserRecord?, create: NewUser
  ) async throws(UserBackendError) -> (UserRecord, Bool) {
    let store = self.store
    return try await store.waitingOffPool { () throws(UserBackendError) -> (UserRecord, Bool) in
      try Self.findOrCreate(in: store, lookup: lookup, create: create)
    }
  }

  /// ``findOrCreate(lookup:create:)`` on the calling thread.
  private static func findOrCreate(
    in store: UserStore, lookup: (UserStore) throws -> UserRecord?, create: NewUser
  ) throws(UserBackendError) -> (UserRecord, Bool) {
    if let existing = try storeCall({ try lookup(store) }) { return (existing, false) }
    do {
      return (try store.createUser(create), true)
    } catch UserStoreError.duplicate(let field) {
      if let existing = try storeCall({ try lookup(store) }) { return (existing, false) }
      throw UserBackendError(
        .accountAlreadyExists, backendCode: field == "email" ? "EMAIL_EXISTS" : "ACCOUNT_EXISTS")
    } catch {
      throw mapped(error)
    }
  }
}
