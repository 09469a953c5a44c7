import Foundation

/// The input checks shared by every backend's operations, one call each, so that an
/// adapter adds only its own rules on top (Firebase's email-only accounts follow from its
/// capabilities; the fake's 6-digit SMS codes stay in the fake).
extension CredentialValidation {
  /// Checks a password credential for a backend with `capabilities`: an identifier kind
  /// the backend does not offer (a user name without ``Capability/usernamePassword``, an
  /// email without ``Capability/emailPassword``) is refused first, then
  /// ``validate(_:forSignUp:)`` runs.
  ///
  /// - Returns: the credential with a canonical email or user name.
  /// - Throws: ``UserBackendError`` `.unsupported(capability:)` naming the missing
  ///   capability; then as ``validate(_:forSignUp:)``.
  public static func validate(
    _ credential: PasswordCredential, forSignUp: Bool, capabilities: Set<Capability>
  ) throws(UserBackendError) -> PasswordCredential {
    switch credential.identifier {
    case .username where !capabilities.contains(.usernamePassword):
      throw UserBackendError(
        .unsupported(capability: .usernamePassword),
        message: "This backend identifies accounts by email address, not user name.")
    case .email where !capabilities.contains(.emailPassword):
      throw UserBackendError(
        .unsupported(capability: .emailPassword),
        message: "This backend identifies accounts by user name, not email address.")
    default:
      return try validate(credential, forSignUp: forSignUp)
    }
  }

  /// Checks a phone number before a verification is started: non-empty after trimming,
  /// then the rule every layer shares (``IdentifierCanonicalization/phoneNumber(_:)``:
  /// E.164, the country's length, no trunk prefix after the country code).
  ///
  /// - Returns: the canonical E.164 number.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "phoneNumber")`.
  public static func validatePhoneNumber(_ phoneNumber: String) throws(UserBackendError) -> String {
    guard !phoneNumber.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw UserBackendError(.invalidInput(field: "phoneNumber", reason: "must not be empty"))
    }
    return try IdentifierCanonicalization.phoneNumber(phoneNumber)
  }

  /// Checks the input of a phone sign-in: the verification ID non-empty and the SMS code
  /// non-empty ASCII digits, both trimmed. A backend with a fixed code length checks it
  /// on top.
  ///
  /// - Returns: the trimmed verification ID and code.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "verificationID" | "code")`.
  public static func validatePhoneSignIn(verificationID: String, code: String)
    throws(UserBackendError) -> (verificationID: String, code: String)
  {
    let verificationID = verificationID.trimmingCharacters(in: .whitespacesAndNewlines)
    let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !verificationID.isEmpty else {
      throw UserBackendError(.invalidInput(field: "verificationID", reason: "must not be empty"))
    }
    guard !code.isEmpty, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw UserBackendError(
        .invalidInput(field: "code", reason: "must be the digits of the SMS code"))
    }
    return (verificationID, code)
  }
}
