import Foundation

/// `POST accounts:signUp` (docs/wire/firebase-auth.md §1): creates an email/password
/// user, or an anonymous user when `email` and `password` are both `nil`
/// (`{"returnSecureToken":true}`).
struct SignUpRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SignUpResponse
  static let service = FirebaseService.identityToolkit("accounts:signUp")

  /// The canonical email; `nil` for anonymous sign-up.
  var email: String?
  /// The password; `nil` for anonymous sign-up.
  var password: String?
  /// Always `true`: ask for an ID token and a refresh token.
  var returnSecureToken = true
}

/// The `accounts:signUp` answer. Unknown fields (`kind`, …) are ignored.
struct SignUpResponse: FirebaseResponse, Hashable {
  /// The new user's ID.
  let localId: String
  /// The email, `""` for anonymous users.
  let email: String?
  /// The display name, when set.
  let displayName: String?
  /// The ID token (a JWT).
  let idToken: String
  /// The refresh token.
  let refreshToken: String
  /// The ID token lifetime.
  let expiresIn: WireSeconds?
}
