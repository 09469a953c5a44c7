/// What a user types to sign up or sign in: an identifier and a password.
///
/// `description` never contains the password.
public struct PasswordCredential: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// Who is signing in.
  public enum Identifier: Sendable, Hashable {
    /// An email address (Firebase; NCMB maps it to `userName` and `mailAddress`).
    case email(String)
    /// A user name (NCMB's `userName`; the fake accepts both kinds).
    case username(String)
  }

  /// The account identifier.
  public var identifier: Identifier
  /// The password, as typed (any Unicode; never trimmed).
  public var password: String

  /// A credential from an identifier and a password.
  public init(_ identifier: Identifier, password: String) {
    self.identifier = identifier
    self.password = password
  }

  /// A credential whose identifier is an email address.
  public static func email(_ email: String, password: String) -> PasswordCredential {
    PasswordCredential(.email(email), password: password)
  }

  /// A credential whose identifier is a user name.
  public static func username(_ username: String, password: String) -> PasswordCredential {
    PasswordCredential(.username(username), password: password)
  }

  /// The identifier with the password redacted.
  public var description: String {
    switch identifier {
    case .email(let email): "PasswordCredential(email: \(email), password: <redacted>)"
    case .username(let name): "PasswordCredential(username: \(name), password: <redacted>)"
    }
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
}

/// An OpenID ID token from an identity provider, with the raw nonce whose SHA-256 (hex)
/// is the token's `nonce` claim. Used for Sign in with Apple (`provider: "apple.com"`).
///
/// `description` never contains the token.
public struct IdentityProviderCredential: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The provider ID, e.g. `"apple.com"`.
  public var provider: String
  /// The provider's ID token (a JWT).
  public var idToken: String
  /// The nonce before hashing, or `nil` when the request used none.
  public var rawNonce: String?

  /// A credential for `provider` with its ID token and raw nonce.
  public init(provider: String, idToken: String, rawNonce: String?) {
    self.provider = provider
    self.idToken = idToken
    self.rawNonce = rawNonce
  }

  /// The provider with the token redacted.
  public var description: String {
    "IdentityProviderCredential(provider: \(provider), idToken: <redacted>)"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
}
