import Foundation

/// `POST accounts:resetPassword` with `oobCode` and `newPassword`: completes a password
/// reset (docs/wire/firebase-auth.md §1, "Verify / confirm reset code").
struct ResetPasswordRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = ResetPasswordResponse
  static let service = FirebaseService.identityToolkit("accounts:resetPassword")

  /// The code from the reset message.
  var oobCode: String
  /// The new password.
  var newPassword: String
}

/// The `accounts:resetPassword` answer: `{"email", "requestType": "PASSWORD_RESET"}`.
struct ResetPasswordResponse: FirebaseResponse, Hashable {
  /// The account's email.
  let email: String?
  /// `"PASSWORD_RESET"`.
  let requestType: String?
}
