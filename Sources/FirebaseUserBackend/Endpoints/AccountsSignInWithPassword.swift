import Foundation

/// `POST accounts:signInWithPassword` (docs/wire/firebase-auth.md §1).
struct SignInWithPasswordRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SignInWithPasswordResponse
  static let service = FirebaseService.identityToolkit("accounts:signInWithPassword")

  /// The canonical email.
  var email: String
  /// The password.
  var password: String
  /// Always `true`.
  var returnSecureToken = true
}

/// The `accounts:signInWithPassword` answer. With multi-factor authentication the server
/// sends `mfaPendingCredential` and no tokens (`docs/wire/firebase-auth.md` §1).
struct SignInWithPasswordResponse: FirebaseResponse, Hashable {
  /// The user's ID.
  let localId: String
  /// The email.
  let email: String?
  /// The display name (`""` when unset).
  let displayName: String?
  /// The ID token; absent when a second factor is required.
  let idToken: String?
  /// The refresh token; absent when a second factor is required.
  let refreshToken: String?
  /// The ID token lifetime.
  let expiresIn: WireSeconds?
  /// Present when a second factor is required.
  let mfaPendingCredential: String?
}
