import Foundation

/// `POST accounts:update`: the signed-in user's profile, password or email, linking a
/// password to an anonymous user (all with `idToken`), or applying an email-verification
/// code (`oobCode`, no `idToken`) (docs/wire/firebase-auth.md §1, "Update profile",
/// "Change password", "Change email", "Link email/password", "Confirm email
/// verification"). `nil` fields are left out of the JSON.
struct UpdateAccountRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = UpdateAccountResponse
  static let service = FirebaseService.identityToolkit("accounts:update")

  /// The ID token; `nil` when applying an out-of-band code.
  var idToken: String?
  /// A new email, or `nil` to keep it.
  var email: String?
  /// A new password, or `nil` to keep it.
  var password: String?
  /// A new display name, or `nil` to keep it.
  var displayName: String?
  /// A new photo URL, or `nil` to keep it.
  var photoUrl: String?
  /// Attributes to remove: `"DISPLAY_NAME"`, `"PHOTO_URL"`; `nil` for none.
  var deleteAttribute: [String]?
  /// An email-verification code to apply.
  var oobCode: String?
  /// `true` with an ID token: a password or email change revokes the old tokens, so new
  /// ones are needed; `nil` (left out) when applying an out-of-band code.
  var returnSecureToken: Bool?

  /// A change of the signed-in user's account.
  init(
    idToken: String, email: String? = nil, password: String? = nil,
    displayName: String? = nil, photoUrl: String? = nil, deleteAttribute: [String]? = nil
  ) {
    self.idToken = idToken
    self.email = email
    self.password = password
    self.displayName = displayName
    self.photoUrl = photoUrl
    self.deleteAttribute = deleteAttribute
    self.returnSecureToken = true
  }

  /// Applies an email-verification code.
  init(oobCode: String) {
    self.oobCode = oobCode
  }
}

/// The `accounts:update` answer. Tokens come back after a password or email change (and
/// from production whenever `returnSecureToken` is set); the emulator sends none for a
/// profile-only change (`docs/wire/firebase-auth.md` §7.3).
struct UpdateAccountResponse: FirebaseResponse, Hashable {
  /// The user's ID (present in every documented answer; optional so an `oobCode` answer
  /// without it still decodes).
  let localId: String?
  /// The email, when any.
  let email: String?
  /// The display name after the change.
  let displayName: String?
  /// The photo URL after the change.
  let photoUrl: String?
  /// Whether the email is verified after the change.
  let emailVerified: Bool?
  /// The linked providers.
  let providerUserInfo: [ProviderUserInfo]?
  /// A new ID token, when issued.
  let idToken: String?
  /// A new refresh token, when issued.
  let refreshToken: String?
  /// The new ID token's lifetime.
  let expiresIn: WireSeconds?
}
