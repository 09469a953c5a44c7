import Foundation

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
/// Sign in with Apple gives the app more than the ID token
/// (`ASAuthorizationAppleIDCredential`): an authorization code, which NCMB needs (it
/// redeems the code with Apple using the team's key; Firebase does not need it), and, on
/// the first authorization only, the user's full name, which Apple never sends again and
/// never puts in the ID token. Pass both when you have them: each backend sends what its
/// service expects (see each backend's `signIn(with:)`).
///
/// `description` never contains the token, the code or the name.
public struct IdentityProviderCredential: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The provider ID, e.g. `"apple.com"`.
  public var provider: String
  /// The provider's ID token (a JWT).
  public var idToken: String
  /// The nonce before hashing, or `nil` when the request used none.
  public var rawNonce: String?
  /// Apple's one-time authorization code (`authorizationCode`, UTF-8 text), or `nil`.
  /// Required by NCMB (`authData.apple.access_token`); a secret, valid for five minutes.
  public var authorizationCode: String?
  /// The user's name as Apple gave it on the first authorization (`fullName`), or `nil`.
  /// Stored as the display name where the backend can (Firebase, and NCMB's local user).
  public var fullName: PersonNameComponents?

  /// A credential for `provider` with its ID token, raw nonce and, for Sign in with Apple,
  /// the authorization code and the one-time full name.
  public init(
    provider: String, idToken: String, rawNonce: String?, authorizationCode: String? = nil,
    fullName: PersonNameComponents? = nil
  ) {
    self.provider = provider
    self.idToken = idToken
    self.rawNonce = rawNonce
    self.authorizationCode = authorizationCode
    self.fullName = fullName
  }

  /// ``fullName`` as one display name: the given, middle and family names that are not
  /// empty, joined by spaces (`"Ada King Lovelace"`); `nil` when there is none.
  public var fullNameForDisplay: String? {
    guard let fullName else { return nil }
    let parts = [fullName.givenName, fullName.middleName, fullName.familyName]
      .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
      .filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// The provider with the token, code and name redacted.
  public var description: String {
    "IdentityProviderCredential(provider: \(provider), idToken: <redacted>"
      + (authorizationCode == nil ? "" : ", authorizationCode: <redacted>")
      + (fullName == nil ? "" : ", fullName: <redacted>") + ")"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
}
