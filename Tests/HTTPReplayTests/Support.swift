import BackendHTTP
import Dispatch
import Foundation
import HTTPReplay
import UserBackendKit

/// A transport answering with a closure; counts requests.
final class StubTransport: HTTPTransport {
  private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse
  private let seen = LockedValue<[HTTPRequest]>([])

  init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
    self.handler = handler
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    seen.withLock { $0.append(request) }
    return try await handler(request)
  }

  var requests: [HTTPRequest] { seen.withLock { $0 } }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = LockedValue(0)
  /// Returns the current value and increments it.
  func next() -> Int {
    value.withLock { value in
      defer { value += 1 }
      return value
    }
  }
}

enum Fixture {
  static let clock = Date(timeIntervalSince1970: 1_767_225_600)
  static let apiKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"  // 39 chars, API key shape
  static let password = "correct horse battery"
  static let refreshToken = "AMf-vBx_REAL_refresh_token_0123456789"

  /// A signed-looking ID token (fake signature) with Firebase-style claims.
  static func signedIDToken(userID: String = "uid-123", iat: Int = 1_767_225_600) -> String {
    let claims: [String: Any] = [
      "iss": "https://securetoken.google.com/demo", "aud": "demo", "sub": userID,
      "user_id": userID, "email": "alice@example.com", "iat": iat, "exp": iat + 3600,
      "auth_time": iat, "nonce": "raw-nonce-value-123",
      "firebase": ["sign_in_provider": "password", "identities": ["email": ["alice@example.com"]]],
    ]
    let unsigned = JSONWebToken.unsigned(
      claims: claims, header: ["alg": "RS256", "kid": "abc", "typ": "JWT"])
    return unsigned + "c2lnbmF0dXJlLWJ5dGVzLWhlcmU"
  }

  static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/") }

  static func json(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  }

  static func jsonObject(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  static func signUp(key: String, password: String) -> HTTPRequest {
    HTTPRequest(
      method: .post,
      url: url("https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(key)"),
      headerFields: ["Content-Type": "application/json", "User-Agent": "test/1"],
      body: json(["email": "alice@example.com", "password": password, "returnSecureToken": true]))
  }

  static func refresh(key: String, refreshToken: String) -> HTTPRequest {
    let encoded =
      refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? refreshToken
    return HTTPRequest(
      method: .post, url: url("https://securetoken.googleapis.com/v1/token?key=\(key)"),
      headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Data("grant_type=refresh_token&refresh_token=\(encoded)".utf8))
  }

  /// A Firebase-like live service: sign-up hands out a signed ID token and a refresh
  /// token; the token endpoint accepts that refresh token.
  static func firebaseLike() -> StubTransport {
    StubTransport { request in
      let headers: HTTPFields = [
        "Content-Type": "application/json; charset=UTF-8", "Date": "Mon, 01 Jan 2026",
        "Set-Cookie": "NID=secretcookie", "Alt-Svc": "h3",
      ]
      if request.url.path.hasSuffix("accounts:signUp") {
        return HTTPResponse(
          status: 200, headerFields: headers,
          body: json([
            "idToken": signedIDToken(), "refreshToken": refreshToken, "expiresIn": "3600",
            "localId": "uid-123", "email": "alice@example.com",
          ]))
      }
      let body = String(decoding: request.body, as: UTF8.self)
      guard body.contains("refresh_token=") else { return HTTPResponse(status: 400) }
      return HTTPResponse(
        status: 200, headerFields: headers,
        body: json([
          "id_token": signedIDToken(iat: 1_767_229_200), "refresh_token": refreshToken,
          "expires_in": "3600", "user_id": "uid-123",
        ]))
    }
  }

  static func metadata(rules: RedactionRules = .firebase) -> ReplayMetadata {
    ReplayMetadata(
      backend: "firebase", contract: "test", clock: clock, seed: 42, rules: rules,
      provenance: Provenance(kind: .emulator, recordedAt: clock))
  }

  /// A cassette with the given interactions.
  static func cassette(_ interactions: [Interaction], rules: RedactionRules = .firebase)
    -> Cassette
  {
    Cassette(
      metadata: metadata(rules: rules),
      entries: interactions.enumerated().map {
        HAREntry($0.element, startedAt: clock, order: $0.offset)
      })
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("httpreplay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// Runs CPU-bound `body` on a Dispatch thread, not on the 2-thread cooperative pool that
/// server tests need, and returns its result.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
  }
}
