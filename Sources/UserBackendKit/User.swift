import Foundation

/// A signed-in user as every backend can describe it.
public struct User: Sendable, Hashable, Codable {
  /// The backend's user ID (Firebase `localId`, NCMB `objectId`, the fake's UUID).
  public var id: String
  /// The email address, canonical (trimmed, lower-cased) where the backend stores it so.
  public var email: String?
  /// The user name (NCMB `userName`; the fake's username identifier).
  public var username: String?
  /// The E.164 phone number for phone sign-in users.
  public var phoneNumber: String?
  /// The display name, when set.
  public var displayName: String?
  /// Provider IDs linked to the account, sorted: `"password"`, `"anonymous"`, `"phone"`,
  /// `"apple.com"`.
  public var providers: [String]
  /// `true` for an anonymous (guest) user.
  public var isAnonymous: Bool
  /// Whether the email address is verified (Firebase `emailVerified`, NCMB
  /// `mailAddressConfirm`); `nil` when the backend did not say.
  public var emailVerified: Bool?
  /// The profile photo's URL (Firebase `photoUrl`), when set.
  public var photoURL: URL?
  /// When the account was created (Firebase `createdAt`, milliseconds since 1970; NCMB
  /// `createDate`); `nil` when the backend did not say.
  public var createdAt: Date?
  /// When the user last signed in (Firebase `lastLoginAt`); `nil` when the backend did not
  /// say.
  public var lastSignInAt: Date?

  /// A user value; `providers` is stored sorted.
  public init(
    id: String,
    email: String? = nil,
    username: String? = nil,
    phoneNumber: String? = nil,
    displayName: String? = nil,
    providers: [String] = [],
    isAnonymous: Bool = false,
    emailVerified: Bool? = nil,
    photoURL: URL? = nil,
    createdAt: Date? = nil,
    lastSignInAt: Date? = nil
  ) {
    self.id = id
    self.email = email
    self.username = username
    self.phoneNumber = phoneNumber
    self.displayName = displayName
    self.providers = providers.sorted()
    self.isAnonymous = isAnonymous
    self.emailVerified = emailVerified
    self.photoURL = photoURL
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
  }
}

/// A signed-in session: the user and the credentials the backend issued.
///
/// `description` and `debugDescription` never contain a token.
public struct AuthSession: Sendable, Hashable, Codable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The signed-in user.
  public var user: User
  /// The bearer credential: Firebase ID token (a JWT), NCMB session token, the fake's
  /// ID token.
  public var bearerToken: String
  /// The refresh token, or `nil` where the backend has none (NCMB).
  public var refreshToken: String?
  /// When ``bearerToken`` expires, or `nil` when the backend does not say (NCMB).
  public var expiresAt: Date?
  /// `true` when this sign-in created the account.
  public var isNewUser: Bool

  /// A session value.
  public init(
    user: User, bearerToken: String, refreshToken: String?, expiresAt: Date?, isNewUser: Bool
  ) {
    self.user = user
    self.bearerToken = bearerToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.isNewUser = isNewUser
  }

  /// `true` when ``expiresAt`` is within `margin` seconds of `now` or past it.
  public func isExpired(at now: Date, margin: TimeInterval = 0) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt.timeIntervalSince(now) <= margin
  }

  /// The user and expiry; tokens redacted.
  public var description: String {
    "AuthSession(user: \(user.id), bearerToken: <redacted>, refreshToken: "
      + "\(refreshToken == nil ? "nil" : "<redacted>"), expiresAt: "
      + "\(expiresAt.map { "\($0)" } ?? "nil"), isNewUser: \(isNewUser))"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
}
