import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Signs in as a new anonymous user: `accounts:signUp` with only
  /// `returnSecureToken: true`. The user has `isAnonymous == true` and provider
  /// `"anonymous"`.
  ///
  /// - Throws: ``UserBackendError``: `.unsupported(capability: .anonymousSignIn)` when the
  ///   project disabled it (`OPERATION_NOT_ALLOWED`), `.network`, `.server`,
  ///   `.malformedResponse`, `.misconfigured`.
  public func signInAnonymously() async throws(UserBackendError) -> AuthSession {
    let response = try await client.send(SignUpRequest(), capability: .anonymousSignIn)
    let grant = FirebaseTokenGrant(
      idToken: response.idToken, refreshToken: response.refreshToken,
      expiresIn: response.expiresIn?.seconds)
    return try await establish(
      grant: grant, localId: response.localId, email: response.email,
      displayName: response.displayName, phoneNumber: nil, defaultProvider: "anonymous",
      isNewUser: true, answer: "accounts:signUp")
  }

  /// ``startPhoneVerification(phoneNumber:appVerification:)`` without a proof: enough
  /// for the Auth Emulator; production projects answer `.invalidInput(field:
  /// "appVerification")`.
  public func startPhoneVerification(phoneNumber: String) async throws(UserBackendError) -> String {
    try await startPhoneVerification(phoneNumber: phoneNumber, appVerification: nil)
  }

  /// Sends an SMS code with `accounts:sendVerificationCode` and returns the verification
  /// ID (`sessionInfo`), which is also kept in the session store as a
  /// ``PendingPhoneVerification`` so the flow survives a restart.
  ///
  /// - Parameters:
  ///   - phoneNumber: E.164, e.g. `"+819012345678"`.
  ///   - appVerification: the proof production requires (sent as `iosReceipt` +
  ///     `iosSecret`, `recaptchaToken`, `captchaResponse` + `clientType` +
  ///     `recaptchaVersion`, or `playIntegrityToken`); `nil` sends none.
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "phoneNumber" |
  ///   "appVerification")` before any request; `.invalidInput(field: "appVerification")`
  ///   when the service wants a proof or rejects it (`MISSING_APP_CREDENTIAL`,
  ///   `INVALID_APP_CREDENTIAL`, `CAPTCHA_CHECK_FAILED`, …); `.invalidInput`
  ///   (`INVALID_PHONE_NUMBER`), `.rateLimited` (`QUOTA_EXCEEDED`,
  ///   `TOO_MANY_ATTEMPTS_TRY_LATER`), `.misconfigured` (`BILLING_NOT_ENABLED`),
  ///   `.network`, `.malformedResponse`.
  public func startPhoneVerification(
    phoneNumber: String, appVerification: AppVerificationProof?
  ) async throws(UserBackendError) -> String {
    let number = try CredentialValidation.validatePhoneNumber(phoneNumber)
    try appVerification?.validate()
    let response = try await client.send(
      SendVerificationCodeRequest(phoneNumber: number, proof: appVerification),
      capability: .phoneNumberSignIn, secrets: appVerification?.secrets ?? [])
    guard !response.sessionInfo.isEmpty else {
      throw UserBackendError(
        .malformedResponse(reason: "accounts:sendVerificationCode: empty sessionInfo"))
    }
    let pending = PendingPhoneVerification(
      verificationID: response.sessionInfo, phoneNumber: number, requestedAt: clock.now())
    try await state.update { state in
      state.pendingPhoneVerification = pending
      return true
    }
    return response.sessionInfo
  }

  /// Completes phone sign-in with `accounts:signInWithPhoneNumber`; clears the pending
  /// verification on success.
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "verificationID" | "code")`
  ///   before any request; `.invalidCredentials` with
  ///   ``UserBackendError/smsCodeRejectedMessage`` when the code is wrong or expired or
  ///   the verification unknown (`INVALID_CODE`, `SESSION_EXPIRED`,
  ///   `INVALID_SESSION_INFO`), `.network`, `.server`, `.malformedResponse`.
  public func signIn(verificationID: String, code: String) async throws(UserBackendError)
    -> AuthSession
  {
    let (verificationID, code) = try CredentialValidation.validatePhoneSignIn(
      verificationID: verificationID, code: code)
    let response = try await client.send(
      SignInWithPhoneNumberRequest(sessionInfo: verificationID, code: code),
      capability: .phoneNumberSignIn, secrets: [verificationID])
    guard let idToken = response.idToken, let refreshToken = response.refreshToken,
      let localId = response.localId
    else {
      if response.temporaryProof != nil {
        throw UserBackendError(
          .accountAlreadyExists, backendCode: "PHONE_NUMBER_EXISTS",
          message: "The phone number belongs to another account.")
      }
      throw UserBackendError(
        .malformedResponse(reason: "accounts:signInWithPhoneNumber: missing tokens or localId"))
    }
    let pendingNumber = try await state.load().pendingPhoneVerification.flatMap {
      $0.verificationID == verificationID ? $0.phoneNumber : nil
    }
    return try await establish(
      grant: FirebaseTokenGrant(
        idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn?.seconds),
      localId: localId, email: nil, displayName: nil,
      phoneNumber: response.phoneNumber ?? pendingNumber, defaultProvider: "phone",
      isNewUser: response.isNewUser ?? false, answer: "accounts:signInWithPhoneNumber",
      clearingPhoneVerification: true)
  }

  /// Signs in with an identity provider's OpenID ID token and raw nonce through
  /// `accounts:signInWithIdp` (Sign in with Apple: `provider == "apple.com"`).
  /// `isNewUser` comes from the answer. The credential's `fullName` is sent as Apple's
  /// `user` parameter, so Firebase stores it as the display name; its `authorizationCode`
  /// is not needed by Firebase and not sent.
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "provider" | "idToken" |
  ///   "rawNonce")` before any request; `.accountAlreadyExists`
  ///   (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`, `NEED_CONFIRMATION`, also when
  ///   sent inside a 200 answer as `errorMessage`), `.invalidCredentials`
  ///   (`INVALID_IDP_RESPONSE`, `MISSING_OR_INVALID_NONCE`), `.unsupported`
  ///   (`OPERATION_NOT_ALLOWED`), `.network`, `.server`, `.malformedResponse`.
  public func signIn(with credential: IdentityProviderCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let credential = try CredentialValidation.validate(credential)
    let provider = credential.provider
    let response = try await client.send(
      SignInWithIdpRequest(
        provider: provider, idToken: credential.idToken, rawNonce: credential.rawNonce,
        fullName: credential.fullName),
      capability: .identityProviderSignIn,
      secrets: [credential.idToken] + (credential.rawNonce.map { [$0] } ?? []))
    guard let idToken = response.idToken, let refreshToken = response.refreshToken,
      let localId = response.localId
    else {
      throw UserBackendError(
        .malformedResponse(reason: "accounts:signInWithIdp: missing tokens or localId"))
    }
    return try await establish(
      grant: FirebaseTokenGrant(
        idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn?.seconds),
      localId: localId, email: response.email, displayName: response.displayName,
      phoneNumber: nil, defaultProvider: response.providerId ?? provider,
      isNewUser: response.isNewUser ?? false, answer: "accounts:signInWithIdp")
  }

  /// Asks Firebase to email a password-reset link: `accounts:sendOobCode` with
  /// `requestType: "PASSWORD_RESET"`.
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "email")`, `.invalidEmail`
  ///   before any request; `.invalidCredentials` (`EMAIL_NOT_FOUND`, only without email
  ///   enumeration protection), `.rateLimited` (`RESET_PASSWORD_EXCEED_LIMIT`),
  ///   `.network`, `.server`, `.malformedResponse`.
  public func sendPasswordReset(email: String) async throws(UserBackendError) {
    let email = try CredentialValidation.validateEmail(email)
    _ = try await client.send(SendPasswordResetRequest(email: email), capability: .passwordReset)
  }

  /// Deletes the signed-in account with `accounts:delete` (using a fresh ID token), then
  /// clears the session and publishes `.signedOut`.
  ///
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` when the server
  ///   rejects the session (it is cleared); `.network` (the session is kept), `.server`,
  ///   `.malformedResponse`.
  public func deleteAccount() async throws(UserBackendError) {
    let deleted = try await withSessionToken { session in
      _ = try await client.send(
        DeleteAccountRequest(idToken: session.bearerToken), capability: .accountDeletion,
        usesSession: true, secrets: [session.bearerToken])
      return session
    }
    let cleared = try await state.update { state in
      guard state.session?.user.id == deleted.user.id else { return false }
      state.session = nil
      return true
    }
    if cleared { state.publish(.signedOut, user: nil) }
  }
}
