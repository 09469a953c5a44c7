import Foundation

/// The input checks every backend runs before any network call.
public enum CredentialValidation {
  /// The minimum password length every backend enforces (Firebase's rule).
  public static let minimumPasswordLength = 6

  /// The canonical form of an email for comparisons (trimmed, NFC, lower-case, IDNA ASCII
  /// domain), without the checks: see
  /// ``IdentifierCanonicalization/emailComparisonForm(_:)``.
  public static func canonicalEmail(_ email: String) -> String {
    IdentifierCanonicalization.emailComparisonForm(email)
  }

  /// Checks an email and returns its canonical form (``IdentifierCanonicalization/email(_:)``,
  /// the form every layer stores): non-empty after trimming
  /// (`invalidInput(field: "email")`), exactly one `@` with text on both sides, no
  /// whitespace, control or format characters, a domain IDNA accepts that is a
  /// host name (``IdentifierCanonicalization/isUsableDomain(_:)``) and at most
  /// ``maximumEmailLength`` characters (`invalidEmail`).
  ///
  /// - Returns: the canonical email.
  /// - Throws: ``UserBackendError``.
  @discardableResult
  public static func validateEmail(_ email: String) throws(UserBackendError) -> String {
    try IdentifierCanonicalization.email(email)
  }

  /// Checks a user name and returns its canonical form
  /// (``IdentifierCanonicalization/username(_:)``): trimmed and NFC, non-empty, no control
  /// or format characters, at most ``maximumUsernameLength`` characters.
  ///
  /// - Returns: the canonical user name.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "username")`.
  @discardableResult
  public static func validateUsername(_ username: String) throws(UserBackendError) -> String {
    try IdentifierCanonicalization.username(username)
  }

  /// Checks a user name for a new identity (sign-up, linking a password): as
  /// ``validateUsername(_:)``, and no `@`. On NCMB user names and mail addresses share the
  /// service's one `userName` namespace (email accounts are signed up with the address as
  /// `userName`), so a user name shaped like an address would take that address from its
  /// owner; one rule on every backend keeps them portable (Firebase has no user names;
  /// the fake keeps the two apart but refuses the same names). Sign-in does not check it:
  /// an account another NCMB client created with such a name can still sign in.
  ///
  /// - Returns: the canonical user name.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "username")`.
  @discardableResult
  public static func validateNewUsername(_ username: String) throws(UserBackendError) -> String {
    let canonical = try validateUsername(username)
    guard !canonical.contains("@") else {
      throw UserBackendError(
        .invalidInput(
          field: "username",
          reason: "must not contain @ (user names and email addresses must not mix)"))
    }
    return canonical
  }

  /// Checks a password for sign-in: non-empty, at most ``maximumPasswordLength``
  /// characters. Nothing else: an existing password may hold characters a new one may
  /// not (``validateNewPassword(_:)``).
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "password")`.
  public static func validatePasswordPresent(_ password: String) throws(UserBackendError) {
    guard !password.isEmpty else {
      throw UserBackendError(.invalidInput(field: "password", reason: "must not be empty"))
    }
    guard limitedLength(password) <= maximumPasswordLength else {
      throw tooLong("password", maximum: maximumPasswordLength)
    }
  }

  /// Checks a password for sign-up: non-empty, at most ``maximumPasswordLength``
  /// characters, no control character and no format character outside a visible
  /// character (`invalidInput(field: "password")`, a reason that never quotes the
  /// password; the rule and why: `Validation+PasswordCharacters.swift`), at least
  /// ``minimumPasswordLength`` characters (`weakPassword`).
  /// - Throws: ``UserBackendError``.
  public static func validateNewPassword(_ password: String) throws(UserBackendError) {
    try validatePasswordPresent(password)
    if let problem = newPasswordCharacterProblem(password) {
      throw UserBackendError(.invalidInput(field: "password", reason: problem))
    }
    guard password.count >= minimumPasswordLength else {
      throw UserBackendError(.weakPassword(minimumLength: minimumPasswordLength))
    }
  }

  /// Runs the checks for a credential.
  ///
  /// - Parameters:
  ///   - credential: the identifier and password as typed.
  ///   - forSignUp: a new identity (sign-up, linking a password): also enforce the
  ///     password strength rule and ``validateNewUsername(_:)``.
  /// - Returns: the credential with a canonical email or user name.
  /// - Throws: ``UserBackendError``.
  public static func validate(_ credential: PasswordCredential, forSignUp: Bool)
    throws(UserBackendError)
    -> PasswordCredential
  {
    var result = credential
    switch credential.identifier {
    case .email(let email): result.identifier = .email(try validateEmail(email))
    case .username(let name):
      result.identifier = .username(
        try forSignUp ? validateNewUsername(name) : validateUsername(name))
    }
    if forSignUp {
      try validateNewPassword(credential.password)
    } else {
      try validatePasswordPresent(credential.password)
    }
    return result
  }
}

extension CredentialValidation {
  /// Checks an identity-provider credential before any network call: `provider` and
  /// `idToken` non-empty, and `rawNonce` and `authorizationCode` each either `nil` or
  /// non-empty.
  ///
  /// - Returns: the credential with `provider` trimmed.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "provider" | "idToken" |
  ///   "rawNonce" | "authorizationCode")`.
  public static func validate(_ credential: IdentityProviderCredential) throws(UserBackendError)
    -> IdentityProviderCredential
  {
    var result = credential
    result.provider = credential.provider.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !result.provider.isEmpty else {
      throw UserBackendError(.invalidInput(field: "provider", reason: "must not be empty"))
    }
    guard !credential.idToken.isEmpty else {
      throw UserBackendError(.invalidInput(field: "idToken", reason: "must not be empty"))
    }
    if let nonce = credential.rawNonce, nonce.isEmpty {
      throw UserBackendError(
        .invalidInput(field: "rawNonce", reason: "must not be empty (pass nil for none)"))
    }
    if let code = credential.authorizationCode, code.isEmpty {
      throw UserBackendError(
        .invalidInput(field: "authorizationCode", reason: "must not be empty (pass nil for none)"))
    }
    return result
  }
}
