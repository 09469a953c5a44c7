import Foundation

/// `POST accounts:delete` with the signed-in user's ID token; answers `{}`
/// (docs/wire/firebase-auth.md §1, "Delete account").
struct DeleteAccountRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = EmptyResponse
  static let service = FirebaseService.identityToolkit("accounts:delete")

  /// The ID token.
  var idToken: String
}
