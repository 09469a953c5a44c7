import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Asks Firebase to send a verification message to the signed-in user's email:
  /// `accounts:sendOobCode` with `requestType: "VERIFY_EMAIL"` and the ID token (the
  /// Auth Emulator lists the code at `/emulator/v1/projects/{id}/oobCodes`).
  ///
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.invalidInput(field: "email")`
  ///   before any request when the stored user has no email (a guest, a phone user);
  ///   `.rateLimited` (`TOO_MANY_ATTEMPTS_TRY_LATER`), `.sessionExpired`, `.network`,
  ///   `.server`, `.malformedResponse`.
  public func sendEmailVerification() async throws(UserBackendError) {
    let stored = try await state.requireSession()
    guard let email = stored.user.email, !email.isEmpty else {
      throw UserBackendError(
        .invalidInput(field: "email", reason: "the signed-in user has no email address"))
    }
    _ = try await withSessionToken { session in
      try await client.send(
        SendEmailVerificationRequest(idToken: session.bearerToken),
        capability: .emailVerification, usesSession: true, secrets: [session.bearerToken])
    }
  }

  /// Completes email verification with the code from the message: `accounts:update` with
  /// only `oobCode`. Needs no signed-in user; when the verified account is the signed-in
  /// one, its stored user gets `emailVerified == true`.
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "code")` before any request
  ///   (empty, not a code) and for an unknown, used or expired code (`INVALID_OOB_CODE`,
  ///   `EXPIRED_OOB_CODE`); `.userDisabled`, `.network`, `.server`, `.malformedResponse`.
  ///   The code never appears in an error.
  public func applyEmailVerification(code: String) async throws(UserBackendError) {
    let code = try CredentialValidation.validateOutOfBandCode(code)
    let response = try await client.send(
      UpdateAccountRequest(oobCode: code), capability: .emailVerification, secrets: [code])
    guard let localId = response.localId, response.emailVerified != false else { return }
    try await state.update { state in
      guard var session = state.session, session.user.id == localId else { return false }
      if let email = response.email, !email.isEmpty { session.user.email = email }
      session.user.emailVerified = true
      state.session = session
      return true
    }
  }

  /// Completes a password reset with the code from the reset message and a new password:
  /// `accounts:resetPassword` with `oobCode` and `newPassword`. Needs no signed-in user;
  /// Firebase revokes the account's earlier sessions, so a signed-in session of that
  /// account ends at its next server call (`.sessionExpired`).
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "code")`,
  ///   `.invalidInput(field: "password")`, `.weakPassword` before any request;
  ///   `.invalidInput(field: "code")` (`INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`),
  ///   `.weakPassword`, `.userDisabled`, `.unsupported(capability:
  ///   .passwordResetCompletion)` (`OPERATION_NOT_ALLOWED`), `.network`, `.server`,
  ///   `.malformedResponse`. Neither the code nor the password appears in an error.
  public func confirmPasswordReset(code: String, newPassword: String)
    async throws(UserBackendError)
  {
    let code = try CredentialValidation.validateOutOfBandCode(code)
    try CredentialValidation.validatePasswordChange(newPassword)
    _ = try await client.send(
      ResetPasswordRequest(oobCode: code, newPassword: newPassword),
      capability: .passwordResetCompletion, secrets: [code, newPassword])
  }
}
