import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import NCMBSigning
import NCMBUserBackend
import UserBackendKit

/// A fresh in-memory store with cheap password hashing and a manual clock.
func makeStore(path: String = ":memory:", clock: ManualClock = ManualClock()) throws -> UserStore {
  try UserStore(path: path, passwordHashIterations: 1, clock: clock)
}

/// A temporary directory for one test, removed by the caller via `defer`.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("BackendEmulatorTests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// JSON bytes of a dictionary (sorted keys).
func jsonData(_ object: [String: Any]) -> Data {
  (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
}

extension HTTPResponse {
  /// The body as a JSON object, or an empty dictionary.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
  }

  /// Firebase `error.message`, or `nil`.
  var firebaseMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

  /// NCMB `code`, or `nil`.
  var ncmbCode: String? { json["code"] as? String }
}

/// Builds Firebase requests in the emulator URL form.
struct FirebaseRequests {
  var base = "http://127.0.0.1:9099"
  var apiKey: String? = "test-api-key"

  /// `POST <base>/identitytoolkit.googleapis.com/v1/accounts:<operation>?key=…`.
  func accounts(_ operation: String, _ body: [String: Any]) -> HTTPRequest {
    let query = apiKey.map { "?key=\($0)" } ?? ""
    return HTTPRequest(
      method: .post,
      url: URL(string: "\(base)/identitytoolkit.googleapis.com/v1/accounts:\(operation)\(query)")!,
      headerFields: ["Content-Type": "application/json"], body: jsonData(body))
  }

  /// `POST <base>/securetoken.googleapis.com/v1/token?key=…` with a form body.
  func token(form: String) -> HTTPRequest {
    HTTPRequest(
      method: .post,
      url: URL(string: "\(base)/securetoken.googleapis.com/v1/token?key=\(apiKey ?? "")")!,
      headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Data(form.utf8))
  }
}

/// Builds signed NCMB requests with the demo keys (or others).
struct NCMBRequests {
  var base = "http://127.0.0.1:9099"
  var applicationKey = NCMBDemoKeys.applicationKey
  var clientKey = NCMBDemoKeys.clientKey
  var timestamp = "2026-01-01T00:00:00.000Z"
  /// The host to sign; `nil` signs the URL's host.
  var signedFQDN: String?

  /// A signed request for `path` below the base URL (e.g. `/2013-09-01/users`).
  func request(
    _ method: HTTPMethod, _ pathAndQuery: String, body: [String: Any]? = nil,
    sessionToken: String? = nil, signedPath: String? = nil
  ) -> HTTPRequest {
    var request = HTTPRequest(
      method: method, url: URL(string: base + pathAndQuery)!,
      headerFields: [
        "X-NCMB-Application-Key": applicationKey, "X-NCMB-Timestamp": timestamp,
        "Content-Type": "application/json",
      ],
      body: body.map(jsonData) ?? Data())
    if let sessionToken { request.headerFields["X-NCMB-Apps-Session-Token"] = sessionToken }
    var signed = request
    if let signedPath { signed.url = URL(string: base + signedPath)! }
    request.headerFields["X-NCMB-Signature"] = NCMBSignature.sign(
      request: signed, applicationKey: applicationKey, clientKey: clientKey,
      timestamp: timestamp, fqdn: signedFQDN)
    return request
  }
}

/// The decoded claims of a JWT (no signature check).
func claims(of token: String) throws -> [String: Any] {
  let jwt = try JSONWebToken(parsing: token)
  return (try JSONSerialization.jsonObject(with: jwt.payload)) as? [String: Any] ?? [:]
}

/// An unsigned OpenID ID token, as a test identity provider would issue it.
func testIDPToken(sub: String?, nonce: String?, email: String? = nil, exp: Double? = nil)
  -> String
{
  var claims: [String: Any] = ["iss": "https://appleid.apple.com", "aud": "com.example.app"]
  if let sub { claims["sub"] = sub }
  if let nonce { claims["nonce"] = nonce }
  if let email { claims["email"] = email }
  if let exp { claims["exp"] = exp }
  return JSONWebToken.unsigned(claims: claims)
}
