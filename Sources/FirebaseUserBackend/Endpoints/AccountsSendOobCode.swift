import Foundation

/// `POST accounts:sendOobCode` with `requestType: "PASSWORD_RESET"`
/// (docs/wire/firebase-auth.md §1, "Send password reset").
struct SendPasswordResetRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SendOobCodeResponse
  static let service = FirebaseService.identityToolkit("accounts:sendOobCode")

  /// Always `"PASSWORD_RESET"`.
  var requestType = "PASSWORD_RESET"
  /// The canonical email.
  var email: String
}

/// `POST accounts:sendOobCode` with `requestType: "VERIFY_EMAIL"` and the signed-in
/// user's ID token (docs/wire/firebase-auth.md §1, "Send verification email").
struct SendEmailVerificationRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SendOobCodeResponse
  static let service = FirebaseService.identityToolkit("accounts:sendOobCode")

  /// Always `"VERIFY_EMAIL"`.
  var requestType = "VERIFY_EMAIL"
  /// The ID token; the message goes to the account's email address.
  var idToken: String
}

/// The `accounts:sendOobCode` answer.
struct SendOobCodeResponse: FirebaseResponse, Hashable {
  /// The email the message went to (absent under email enumeration protection).
  let email: String?
}
