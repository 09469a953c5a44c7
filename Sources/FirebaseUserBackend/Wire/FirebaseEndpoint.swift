import Foundation
import UserBackendKit

/// Which Firebase service an endpoint lives on (docs/wire/firebase-auth.md §0).
enum FirebaseService: Sendable, Hashable {
  /// `identitytoolkit.googleapis.com/v1/<path>`, e.g. `accounts:signUp`.
  case identityToolkit(String)
  /// `securetoken.googleapis.com/v1/token`.
  case secureToken
}

/// A request body with its media type.
struct FirebaseRequestBody: Sendable, Hashable {
  /// The `Content-Type` header value.
  let contentType: String
  /// The bytes.
  let data: Data
}

/// One Firebase REST endpoint: a request value that encodes itself and the response type
/// it decodes. The adapter is a sequence of these sent through ``FirebaseClient``.
///
/// The default body is JSON with sorted keys (deterministic bytes for cassettes).
protocol FirebaseEndpoint: Sendable {
  /// The decoded success answer.
  associatedtype Response: FirebaseResponse
  /// Where the endpoint lives.
  static var service: FirebaseService { get }
  /// The encoded body.
  func body() throws -> FirebaseRequestBody
}

/// A decoded success answer. Some endpoints report an error inside a 200 answer
/// (`accounts:signInWithIdp` `errorMessage`, `docs/wire/firebase-auth.md` §4); they return
/// it here.
protocol FirebaseResponse: Decodable, Sendable {
  /// An error carried by a 2xx answer, in the `CODE : detail` form, or `nil`.
  var embeddedErrorMessage: String? { get }
}

extension FirebaseResponse {
  /// No embedded error by default.
  var embeddedErrorMessage: String? { nil }
}

extension FirebaseEndpoint where Self: Encodable {
  /// JSON, sorted keys, slashes not escaped.
  func body() throws -> FirebaseRequestBody {
    FirebaseRequestBody(contentType: "application/json", data: try FirebaseJSON.encode(self))
  }
}

/// The JSON coding used on the wire.
enum FirebaseJSON {
  /// Encodes `value` as compact JSON with sorted keys.
  static func encode(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
  }
}
