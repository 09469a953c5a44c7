import AccountDatabase
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// With `--sign-tokens` the emulator takes back only ID tokens it signed: an unsigned
/// copy of the claims, a token signed by another key, a changed payload under the
/// original signature, or a header naming another key is `INVALID_ID_TOKEN`, for
/// Firebase account calls and for Firestore alike.
@Suite("Emulator: --sign-tokens refuses unsigned and forged ID tokens", .timeLimit(.minutes(1)))
struct SignedTokenForgeryTests {
  /// The segments of a compact JWT.
  static func segments(_ token: String) -> [String] {
    token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }

  /// The claims of `token` (no check).
  static func claims(_ token: String) throws -> [String: Any] {
    let payload = try #require(Base64URL.decode(segments(token)[1]))
    return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
  }

  /// `token` with its payload's `auth_time` claim changed, under the original signature.
  static func tampered(_ token: String) throws -> String {
    let parts = segments(token)
    var claims = try claims(token)
    claims["auth_time"] = 1
    let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
    return parts[0] + "." + Base64URL.encode(payload) + "." + parts[2]
  }

  /// `token` with `kid` replaced, signature kept.
  static func otherKeyID(_ token: String) -> String {
    let parts = segments(token)
    let header = #"{"alg":"RS256","kid":"0000000000000000000000000000000000000000","typ":"JWT"}"#
    return Base64URL.encode(Data(header.utf8)) + "." + parts[1] + "." + parts[2]
  }

  @Test func forgedTokensAreRefused() async throws {
    let clock = ManualClock()
    let emulator = BackendEmulator(
      store: try makeStore(clock: clock), projectID: "demo-test",
      tokenSigning: try FirebaseTokenSigning.generate())
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "f@example.com", "password": "secret1"]))
    let token = try #require(signUp.json["idToken"] as? String)
    let claims = try Self.claims(token)
    let unsigned = JSONWebToken.unsigned(claims: claims)
    let otherKey = try FirebaseTokenSigning.generate().token(claims: claims)
    let forged: [(String, String)] = [
      ("unsigned", unsigned), ("another key", otherKey),
      ("changed payload", try Self.tampered(token)),
      ("another kid", Self.otherKeyID(token)),
      ("no signature", Self.segments(token)[0] + "." + Self.segments(token)[1] + "."),
    ]
    #expect(
      await emulator.handle(FirebaseRequests().accounts("lookup", ["idToken": token])).status
        == 200)
    let uid = try #require(signUp.json["localId"] as? String)
    func firestoreGet(_ idToken: String) async -> HTTPResponse {
      var request = HTTPRequest(
        method: .get,
        url: URL(
          string:
            "http://127.0.0.1:9099/v1/projects/demo-test/databases/(default)/documents/users/\(uid)"
        )!)
      request.headerFields["Authorization"] = "Bearer " + idToken
      return await emulator.handle(request)
    }
    #expect(await firestoreGet(token).status == 404)  // allowed; no document yet
    for (name, forgery) in forged {
      #expect(await firestoreGet(forgery).status == 401, "\(name)")
      let lookup = await emulator.handle(
        FirebaseRequests().accounts("lookup", ["idToken": forgery]))
      #expect(lookup.status == 400, "\(name)")
      #expect(lookup.firebaseMessage == "INVALID_ID_TOKEN", "\(name)")
      let update = await emulator.handle(
        FirebaseRequests().accounts("update", ["idToken": forgery, "displayName": "x"]))
      #expect(update.firebaseMessage == "INVALID_ID_TOKEN", "\(name)")
    }
  }
}
