import Foundation

/// `POST accounts:lookup` with the signed-in user's ID token (docs/wire/firebase-auth.md
/// §1, "Get user").
struct LookupRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = LookupResponse
  static let service = FirebaseService.identityToolkit("accounts:lookup")

  /// The ID token.
  var idToken: String
}

/// The `accounts:lookup` answer: `users[]` (one element for an ID-token lookup).
struct LookupResponse: FirebaseResponse, Hashable {
  /// One account as `accounts:lookup` describes it (`FT:schema.ts` `…UserInfo`).
  struct UserInfo: Decodable, Sendable, Hashable {
    /// The user's ID.
    let localId: String
    /// The email, when any.
    let email: String?
    /// Whether the email address is verified.
    let emailVerified: Bool?
    /// The display name, when set.
    let displayName: String?
    /// The profile photo's URL as stored (any text another client set).
    let photoUrl: String?
    /// The E.164 phone number, when any.
    let phoneNumber: String?
    /// `true` when the account is disabled.
    let disabled: Bool?
    /// The linked providers; absent or empty for anonymous users.
    let providerUserInfo: [ProviderUserInfo]?
    /// Creation time, milliseconds since 1970 (a decimal string on the wire).
    let createdAt: WireMilliseconds?
    /// Last sign-in time, milliseconds since 1970 (a decimal string on the wire).
    let lastLoginAt: WireMilliseconds?
  }

  /// The accounts found; absent when none.
  let users: [UserInfo]?
}
