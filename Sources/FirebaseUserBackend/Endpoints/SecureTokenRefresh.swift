import BackendHTTP
import Foundation

/// `POST securetoken.googleapis.com/v1/token`: exchanges a refresh token for a new ID
/// token. Form-encoded `grant_type=refresh_token&refresh_token=…`, as the JS SDK and the
/// REST reference send it (docs/wire/firebase-auth.md §2).
struct RefreshTokenRequest: FirebaseEndpoint, Hashable {
  typealias Response = RefreshTokenResponse
  static let service = FirebaseService.secureToken

  /// The refresh token.
  var refreshToken: String

  /// `application/x-www-form-urlencoded`.
  func body() throws -> FirebaseRequestBody {
    let form = FormURLEncoding.encode([
      ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
    ])
    return FirebaseRequestBody(
      contentType: "application/x-www-form-urlencoded", data: Data(form.utf8))
  }
}

/// The Secure Token answer, snake_case (`docs/wire/firebase-auth.md` §2). `token_type`,
/// `project_id` and `access_token` are ignored.
struct RefreshTokenResponse: FirebaseResponse, Hashable {
  /// The new ID token.
  let idToken: String
  /// The refresh token to store from now on (the same one or a new one).
  let refreshToken: String
  /// The new ID token's lifetime.
  let expiresIn: WireSeconds?
  /// The user's ID.
  let userID: String?

  enum CodingKeys: String, CodingKey {
    case idToken = "id_token"
    case refreshToken = "refresh_token"
    case expiresIn = "expires_in"
    case userID = "user_id"
  }
}
