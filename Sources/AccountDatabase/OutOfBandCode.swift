import Foundation

/// What an out-of-band code was "mailed" for (the Firebase `requestType` names).
public enum OutOfBandRequestType: String, Sendable, Hashable, CaseIterable, Codable {
  /// A password reset: the code and a new password finish it.
  case passwordReset = "PASSWORD_RESET"
  /// An email verification: the code marks the address verified.
  case verifyEmail = "VERIFY_EMAIL"
}

/// An out-of-band code a ``UserStore`` recorded in place of sending a message: what a
/// password-reset or verification mail would carry. The fake backend and the emulator
/// list them so tests (and curl users) can finish the flow.
///
/// `description` never contains the code.
public struct OutOfBandCode: Sendable, Hashable, CustomStringConvertible {
  /// The code (32 random bytes as base64url, 43 characters).
  public var code: String
  /// What it is for.
  public var requestType: OutOfBandRequestType
  /// The canonical email address it was "sent" to.
  public var email: String
  /// The account it belongs to.
  public var userID: String
  /// When it was issued (store clock).
  public var createdAt: Date
  /// When it stops being accepted (store clock).
  public var expiresAt: Date

  /// A code value.
  public init(
    code: String, requestType: OutOfBandRequestType, email: String, userID: String,
    createdAt: Date, expiresAt: Date
  ) {
    self.code = code
    self.requestType = requestType
    self.email = email
    self.userID = userID
    self.createdAt = createdAt
    self.expiresAt = expiresAt
  }

  /// The request type, email and expiry with the code redacted.
  public var description: String {
    "OutOfBandCode(requestType: \(requestType.rawValue), email: \(email), code: <redacted>, "
      + "expiresAt: \(expiresAt))"
  }
}
