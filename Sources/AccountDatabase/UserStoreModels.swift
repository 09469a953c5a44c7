import Foundation
import UserBackendKit

/// The fields of an account to create in a ``UserStore``.
///
/// `description` never contains the password.
public struct NewUser: Sendable, Hashable, CustomStringConvertible {
  /// The email address; stored canonical (trimmed, NFC, lower-cased, IDNA ASCII domain).
  /// `nil` for none.
  public var email: String?
  /// The user name; stored canonical (trimmed, NFC). `nil` for none.
  public var username: String?
  /// The password in clear; stored only as a salted PBKDF2-HMAC-SHA256 hash. `nil` for
  /// accounts without a password (anonymous, phone, identity provider).
  public var password: String?
  /// The E.164 phone number (`+819012345678`), or `nil`.
  public var phoneNumber: String?
  /// The display name, or `nil`.
  public var displayName: String?
  /// The provider that created the account: `"password"`, `"anonymous"`, `"phone"`,
  /// `"apple.com"`, ...
  public var provider: String
  /// The provider's subject (`sub` claim) for identity-provider accounts, else `nil`.
  public var providerSubject: String?
  /// `true` for an anonymous (guest) account.
  public var isAnonymous: Bool

  /// An account description; every field defaults to empty, provider `"password"`.
  public init(
    email: String? = nil,
    username: String? = nil,
    password: String? = nil,
    phoneNumber: String? = nil,
    displayName: String? = nil,
    provider: String = "password",
    providerSubject: String? = nil,
    isAnonymous: Bool = false
  ) {
    self.email = email
    self.username = username
    self.password = password
    self.phoneNumber = phoneNumber
    self.displayName = displayName
    self.provider = provider
    self.providerSubject = providerSubject
    self.isAnonymous = isAnonymous
  }

  /// The fields with the password redacted.
  public var description: String {
    "NewUser(email: \(email ?? "nil"), username: \(username ?? "nil"), password: "
      + "\(password == nil ? "nil" : "<redacted>"), phoneNumber: \(phoneNumber ?? "nil"), "
      + "provider: \(provider), isAnonymous: \(isAnonymous))"
  }
}

/// An account as stored in a ``UserStore`` (without its password hash).
public struct UserRecord: Sendable, Hashable {
  /// The user ID (a UUID string).
  public var id: String
  /// The canonical email (trimmed, NFC, lower-cased, IDNA ASCII domain), or `nil`.
  public var email: String?
  /// The canonical user name (trimmed, NFC), or `nil`.
  public var username: String?
  /// The E.164 phone number, or `nil`.
  public var phoneNumber: String?
  /// The display name, or `nil`.
  public var displayName: String?
  /// The providers linked to the account, sorted (`["password"]`).
  public var providers: [String]
  /// `true` for an anonymous account.
  public var isAnonymous: Bool
  /// `true` when sign-in and token refresh are refused.
  public var disabled: Bool
  /// When the account was created (store clock).
  public var createdAt: Date
  /// When the account last changed (store clock).
  public var updatedAt: Date
  /// Tokens issued before this instant are stale; moved forward by a password change.
  public var validSince: Date
  /// `true` once the email address was verified with an out-of-band code; cleared when
  /// the email changes.
  public var emailVerified: Bool
  /// The profile photo's URL (absolute `http`/`https`, checked by the callers), or `nil`.
  public var photoURL: String?
  /// When the account last signed in (a new refresh token family or NCMB session token,
  /// store clock), or `nil` when it never did since it was created or migrated.
  public var lastSignInAt: Date?

  /// A record value; `providers` is stored sorted.
  public init(
    id: String, email: String?, username: String?, phoneNumber: String?, displayName: String?,
    providers: [String], isAnonymous: Bool, disabled: Bool, createdAt: Date, updatedAt: Date,
    validSince: Date, emailVerified: Bool = false, photoURL: String? = nil,
    lastSignInAt: Date? = nil
  ) {
    self.id = id
    self.email = email
    self.username = username
    self.phoneNumber = phoneNumber
    self.displayName = displayName
    self.providers = providers.sorted()
    self.isAnonymous = isAnonymous
    self.disabled = disabled
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.validSince = validSince
    self.emailVerified = emailVerified
    self.photoURL = photoURL
    self.lastSignInAt = lastSignInAt
  }

  /// The portable ``UserBackendKit/User`` for this record, with `emailVerified`,
  /// `photoURL`, `createdAt` and `lastSignInAt`; a display name or photo URL over the
  /// client's limit (written by another program) is dropped, as the adapters drop one
  /// from a server (``UserBackendKit/AnswerLimits/keepingUsableProfile(_:)``).
  public var user: User {
    User(
      id: id, email: email, username: username, phoneNumber: phoneNumber,
      displayName: AnswerLimits.usableDisplayName(displayName), providers: providers,
      isAnonymous: isAnonymous, emailVerified: emailVerified,
      photoURL: AnswerLimits.usablePhotoURL(photoURL),
      createdAt: createdAt, lastSignInAt: lastSignInAt)
  }
}

/// A phone verification waiting for its code, as the store (the "server") keeps it.
///
/// `description` never contains the code.
public struct PhoneVerification: Sendable, Hashable, CustomStringConvertible {
  /// The opaque verification ID handed to the client (base64url, 32 characters).
  public var verificationID: String
  /// The E.164 number the code was "sent" to.
  public var phoneNumber: String
  /// The 6-digit code (what the SMS would carry; the emulator lists it for tests).
  public var code: String
  /// When the code stops being accepted (store clock).
  public var expiresAt: Date

  /// A verification value.
  public init(verificationID: String, phoneNumber: String, code: String, expiresAt: Date) {
    self.verificationID = verificationID
    self.phoneNumber = phoneNumber
    self.code = code
    self.expiresAt = expiresAt
  }

  /// The number and expiry with the code redacted.
  public var description: String {
    "PhoneVerification(phoneNumber: \(phoneNumber), code: <redacted>, expiresAt: \(expiresAt))"
  }
}

/// A recorded password-reset request (no message is sent; tests read these).
public struct PasswordResetRequest: Sendable, Hashable {
  /// The canonical email the reset was requested for.
  public var email: String
  /// When it was requested (store clock).
  public var requestedAt: Date

  /// A request value.
  public init(email: String, requestedAt: Date) {
    self.email = email
    self.requestedAt = requestedAt
  }
}

/// Errors from ``UserStore``. Messages never contain passwords or tokens.
public enum UserStoreError: Error, Sendable, Hashable {
  /// A UNIQUE index refused the write; `field` is `"email"`, `"username"`,
  /// `"phoneNumber"` or `"providerSubject"`.
  case duplicate(field: String)
  /// No account has the given ID.
  case userNotFound
  /// The account is disabled.
  case userDisabled
  /// The refresh token is unknown, already rotated, or revoked.
  case invalidRefreshToken
  /// The phone verification code is wrong.
  case invalidVerificationCode
  /// The phone verification expired.
  case verificationExpired
  /// No phone verification has the given ID (never started, or already completed).
  case unknownVerification
  /// The out-of-band code is unknown, already used, or of another request type.
  case invalidOutOfBandCode
  /// The out-of-band code expired.
  case outOfBandCodeExpired
  /// A password can be linked only to an anonymous account.
  case notAnonymous
  /// SQLite failed; `message` is SQLite's text.
  case database(message: String)
}
