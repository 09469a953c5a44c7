/// Something a backend supports beyond the core password operations.
///
/// An open set (a `String` raw value) so that contracts written as data can name
/// capabilities this version does not know; such a contract is skipped, not rejected.
public struct Capability: RawRepresentable, Hashable, Codable, Sendable, Comparable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The stable name used in contract files, e.g. `"emailPassword"`.
  public let rawValue: String
  /// Wraps a raw name.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps a raw name.
  public init(stringLiteral value: String) { self.rawValue = value }
  /// The raw name.
  public var description: String { rawValue }
  /// Orders by raw name.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Password credentials whose identifier is an email address.
  public static let emailPassword: Capability = "emailPassword"
  /// Password credentials whose identifier is a user name.
  public static let usernamePassword: Capability = "usernamePassword"
  /// ID tokens that expire and are refreshed with a refresh token.
  public static let tokenRefresh: Capability = "tokenRefresh"
  /// Anonymous (guest) sign-in.
  public static let anonymousSignIn: Capability = "anonymousSignIn"
  /// SMS verification-code sign-in.
  public static let phoneNumberSignIn: Capability = "phoneNumberSignIn"
  /// Sign-in with an OpenID ID token from an identity provider (Sign in with Apple).
  public static let identityProviderSignIn: Capability = "identityProviderSignIn"
  /// Password-reset requests.
  public static let passwordReset: Capability = "passwordReset"
  /// Deleting the signed-in account.
  public static let accountDeletion: Capability = "accountDeletion"
  /// The ``UserBackend/authStateChanges`` stream.
  public static let authStateChanges: Capability = "authStateChanges"
  /// ``UserBackend/reload()``: the signed-in user fresh from the server.
  public static let userReload: Capability = "userReload"
  /// ``UserBackend/updateProfile(displayName:photoURL:)``.
  public static let profileUpdate: Capability = "profileUpdate"
  /// ``UserBackend/updatePassword(_:)``.
  public static let passwordUpdate: Capability = "passwordUpdate"
  /// ``UserBackend/updateEmail(_:)``.
  public static let emailUpdate: Capability = "emailUpdate"
  /// ``UserBackend/sendEmailVerification()`` and
  /// ``UserBackend/applyEmailVerification(code:)``.
  public static let emailVerification: Capability = "emailVerification"
  /// ``UserBackend/confirmPasswordReset(code:newPassword:)``: finishing a reset with the
  /// out-of-band code through the API (Firebase `accounts:resetPassword`).
  public static let passwordResetCompletion: Capability = "passwordResetCompletion"
  /// Sensitive changes (password, email, account deletion) need a recent sign-in: an older
  /// session gets `requiresRecentLogin` until ``UserBackend/reauthenticate(_:)``. Firebase
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), the fake and the emulator enforce it; NCMB has no
  /// such rule.
  public static let recentLoginRequirement: Capability = "recentLoginRequirement"
  /// ``UserBackend/reauthenticate(_:)``.
  public static let reauthentication: Capability = "reauthentication"
  /// ``UserBackend/linkPassword(_:)``: turning the signed-in guest into a password
  /// account with the same user ID.
  public static let anonymousUpgrade: Capability = "anonymousUpgrade"
  /// ``UserBackend/userDocuments``: the signed-in user's own document, owner-only.
  public static let userDocuments: Capability = "userDocuments"
  /// ``UserBackend/signOut()`` revokes the session on the server: its token is refused
  /// afterwards, also on another device holding a copy (NCMB `GET logout`). Firebase signs
  /// out on the device only (the refresh token stays valid until revoked, the ID token
  /// until it expires), and the fake does as Firebase.
  public static let signOutRevokesSession: Capability = "signOutRevokesSession"
  /// ``UserBackend/updatePassword(_:)`` signs every other device out: the server revokes
  /// the account's earlier tokens and the device that made the change gets new ones
  /// (Firebase, the fake). NCMB keeps the session token valid.
  public static let passwordChangeRevokesSessions: Capability = "passwordChangeRevokesSessions"
}
