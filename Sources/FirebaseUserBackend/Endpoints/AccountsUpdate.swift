import Foundation

/// `POST accounts:update` for the signed-in user: change the password or the display
/// name (docs/wire/firebase-auth.md §1, "Change password", "Update profile").
struct UpdateAccountRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = UpdateAccountResponse
  static let service = FirebaseService.identityToolkit("accounts:update")

  /// The ID token.
  var idToken: String
  /// A new password, or `nil` to keep it.
  var password: String?
  /// A new display name, or `nil` to keep it.
  var displayName: String?
  /// `["DISPLAY_NAME"]` to remove the display name, or `nil`.
  var deleteAttribute: [String]?
  /// Always `true`: a password change revokes the old tokens, so new ones are needed.
  var returnSecureToken = true
}

/// The `accounts:update` answer. Tokens come back after a password change; the emulator
/// sends none for a profile-only change (`docs/wire/firebase-auth.md` §7.3).
struct UpdateAccountResponse: FirebaseResponse, Hashable {
  /// The user's ID.
  let localId: String
  /// The email, when any.
  let email: String?
  /// The display name after the change.
  let displayName: String?
  /// The linked providers.
  let providerUserInfo: [ProviderUserInfo]?
  /// A new ID token, when issued.
  let idToken: String?
  /// A new refresh token, when issued.
  let refreshToken: String?
  /// The new ID token's lifetime.
  let expiresIn: WireSeconds?
}
