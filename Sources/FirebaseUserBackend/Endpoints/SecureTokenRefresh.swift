import BackendHTTP
import Foundation

/// `POST securetoken.googleapis.com/v1/token`: exchanges a refresh token for a new ID
/// token. Form-encoded `grant_type=refresh_token&refresh_token=…`, as the JS SDK and the
/// REST reference send it.
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

/// The Secure Token answer, snake_case. The new ID token is `id_token` (documented) or
/// `access_token` (which the official JS SDK reads; both carry the same token): the first
/// non-empty one wins, and an answer with neither is malformed. `expires_in` is a string
/// or a number. `token_type` and `project_id` are ignored.
struct RefreshTokenResponse: FirebaseResponse, Hashable {
  /// The new ID token, from `id_token` or else `access_token`.
  let idToken: String
  /// The refresh token to store from now on (the same one or a new one).
  let refreshToken: String
  /// The new ID token's lifetime.
  let expiresIn: WireSeconds?
  /// The user's ID.
  let userID: String?

  enum CodingKeys: String, CodingKey {
    case idToken = "id_token"
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case expiresIn = "expires_in"
    case userID = "user_id"
  }

  /// Decodes the answer.
  /// - Throws: `DecodingError.keyNotFound(id_token)` when neither `id_token` nor
  ///   `access_token` is a non-empty string.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let candidates = [
      try container.decodeIfPresent(String.self, forKey: .idToken),
      try container.decodeIfPresent(String.self, forKey: .accessToken),
    ]
    guard let token = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
      throw DecodingError.keyNotFound(
        CodingKeys.idToken,
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "neither id_token nor access_token carries a token"))
    }
    idToken = token
    refreshToken = try container.decode(String.self, forKey: .refreshToken)
    expiresIn = try container.decodeIfPresent(WireSeconds.self, forKey: .expiresIn)
    userID = try container.decodeIfPresent(String.self, forKey: .userID)
  }
}
