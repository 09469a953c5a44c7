import BackendHTTP
import Foundation
import UserBackendKit

@testable import FirebaseTokenVerification

/// Keys generated with OpenSSL when the tests first need them, once per test process.
enum TestKeys {
  private static let generated: Result<[RS256SigningKey], RS256SigningKey.Unavailable> =
    Result { () throws(RS256SigningKey.Unavailable) in
      [try RS256SigningKey.generate(), try RS256SigningKey.generate()]
    }

  /// The key whose certificate is published as `k1`.
  static func primary() throws -> RS256SigningKey { try generated.get()[0] }
  /// A second key: published as `k2` after a rotation, or unpublished ("another key").
  static func other() throws -> RS256SigningKey { try generated.get()[1] }
}

/// A certificate endpoint: serves a document of `kid` -> PEM, counts requests, and can
/// fail or hold each answer for a while so waiters pile up.
final class CertificateEndpoint: HTTPTransport {
  struct State {
    var certificates: [String: String] = [:]
    var cacheControl = "public, max-age=3600, must-revalidate, no-transform"
    var status = 200
    var unreachable = false
    var requests = 0
    var paths: [String] = []
  }
  let state = LockedValue(State())
  let delay: Duration

  init(_ certificates: [String: String], delay: Duration = .zero) {
    self.delay = delay
    state.withLock { $0.certificates = certificates }
  }

  var requests: Int { state.withLock { $0.requests } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let snapshot = state.withLock { state in
      state.requests += 1
      state.paths.append(request.url.path)
      return state
    }
    if delay > .zero { try await Task.sleep(for: delay) }
    if snapshot.unreachable { throw HTTPTransportError.connectionFailed(reason: "refused") }
    let body = try JSONSerialization.data(withJSONObject: snapshot.certificates)
    return HTTPResponse(
      status: snapshot.status,
      headerFields: ["Cache-Control": snapshot.cacheControl, "Content-Type": "application/json"],
      body: body)
  }
}

/// Token pieces for the table.
enum Tokens {
  static let projectID = "demo-verify"
  static let start = Date(timeIntervalSince1970: 1_767_225_600)

  /// Valid claims at `now` for user `u-1`.
  static func claims(now: Date = start) -> [String: Any] {
    let seconds = Int(now.timeIntervalSince1970)
    return [
      "iss": "https://securetoken.google.com/\(projectID)", "aud": projectID,
      "sub": "u-1", "user_id": "u-1", "iat": seconds - 10, "exp": seconds + 3590,
      "auth_time": seconds - 100, "email": "ada@example.com", "email_verified": true,
      "phone_number": "+15555550100", "role": "admin", "level": 3,
      "firebase": [
        "sign_in_provider": "password",
        "identities": ["email": ["ada@example.com"], "phone": ["+15555550100"]],
      ],
    ]
  }

  /// `claims` with `changes` applied (`NSNull` removes a claim).
  static func claims(_ changes: [String: Any]) -> [String: Any] {
    var result = claims()
    for (name, value) in changes {
      result[name] = value is NSNull ? nil : value
    }
    return result
  }

  /// A compact JWT with any header and signature bytes.
  static func compact(header: [String: Any], claims: [String: Any], signature: Data) -> String {
    let encode = { (object: [String: Any]) in
      Base64URL.encode(
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
    return encode(header) + "." + encode(claims) + "." + Base64URL.encode(signature)
  }

  /// An HS256 token whose HMAC secret is the published certificate (the classic
  /// algorithm-confusion attack).
  static func hs256(claims: [String: Any], secret: String) -> String {
    let header: [String: Any] = ["alg": "HS256", "kid": "k1", "typ": "JWT"]
    let unsigned = compact(header: header, claims: claims, signature: Data())
    let signingInput = String(unsigned.dropLast())
    let mac = Crypto.hmacSHA256(key: Data(secret.utf8), message: Data(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(mac)
  }
}

extension FirebaseTokenVerifier {
  /// A verifier of ``Tokens/projectID`` over `endpoint` at `clock`.
  static func testing(
    _ endpoint: CertificateEndpoint, clock: ManualClock, unsigned: Bool = false
  ) -> FirebaseTokenVerifier {
    FirebaseTokenVerifier(
      configuration: Configuration(
        projectID: Tokens.projectID,
        certificatesURL: URL(string: "http://127.0.0.1:1/certs")!,
        acceptsUnsignedTokens: unsigned),
      transport: endpoint, clock: clock)
  }
}
