import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite(
  "FirebaseAuthHandler: tokens, legacy routes, phone and identity providers",
  .timeLimit(.minutes(2)))
struct FirebaseTokenAndFederatedTests {
  let clock = ManualClock()
  let store: UserStore
  let handler: FirebaseAuthHandler
  let requests = FirebaseRequests()

  init() throws {
    store = try makeStore(clock: clock)
    handler = FirebaseAuthHandler(store: store)
  }

  func signUp() async throws -> [String: Any] {
    let response = await handler.handle(
      requests.accounts("signUp", ["email": "user@example.com", "password": "secret1"]))
    try #require(response.status == 200)
    return response.json
  }

  @Test("the token endpoint takes a form with snake_case keys and keeps auth_time")
  func refreshForm() async throws {
    let created = try await signUp()
    let refreshToken = try #require(created["refreshToken"] as? String)
    let authTime = try claims(of: try #require(created["idToken"] as? String))["auth_time"]
    clock.advance(by: 100)
    let encoded = refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let response = await handler.handle(
      requests.token(form: "grant_type=refresh_token&refresh_token=\(encoded)"))
    #expect(response.status == 200)
    let body = response.json
    #expect(body["token_type"] as? String == "Bearer")
    #expect(body["expires_in"] as? String == "3600")
    #expect(body["user_id"] as? String == created["localId"] as? String)
    #expect(body["access_token"] as? String == body["id_token"] as? String)
    let newClaims = try claims(of: try #require(body["id_token"] as? String))
    #expect(newClaims["auth_time"] as? Int == authTime as? Int)
    #expect(newClaims["iat"] as? Int == Int(clock.now().timeIntervalSince1970))
    // As Firebase's, the refresh token does not rotate: the answer carries the same one.
    #expect(body["refresh_token"] as? String == refreshToken)
  }

  @Test("a refresh token stays valid when reused, until the account is deleted or revoked")
  func refreshTokenReuse() async throws {
    let created = try await signUp()
    let refreshToken = try #require(created["refreshToken"] as? String)
    let encoded = refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let form = "grant_type=refresh_token&refresh_token=\(encoded)"
    for _ in 0..<3 {
      let reused = await handler.handle(requests.token(form: form))
      #expect(reused.status == 200, "reuse is not an error: \(reused.json)")
      #expect(reused.json["refresh_token"] as? String == refreshToken)
    }
    let userID = try #require(created["localId"] as? String)
    try store.revokeRefreshTokens(userID: userID)
    let revoked = await handler.handle(requests.token(form: form))
    #expect(revoked.firebaseMessage == "INVALID_REFRESH_TOKEN")
    #expect((revoked.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")
  }

  @Test("the token endpoint takes JSON with camelCase keys")
  func refreshJSON() async throws {
    let created = try await signUp()
    var request = requests.token(form: "")
    request.headerFields["Content-Type"] = "application/json"
    request.body = jsonData([
      "grantType": "refresh_token", "refreshToken": try #require(created["refreshToken"]),
    ])
    let response = await handler.handle(request)
    #expect(response.status == 200)
    #expect((response.json["refresh_token"] as? String)?.isEmpty == false)
  }

  @Test(
    "token endpoint errors",
    arguments: [
      ("", "MISSING_GRANT_TYPE"),
      ("grant_type=password", "INVALID_GRANT_TYPE"),
      ("grant_type=refresh_token", "MISSING_REFRESH_TOKEN"),
      ("grant_type=refresh_token&refresh_token=bogus", "INVALID_REFRESH_TOKEN"),
    ])
  func tokenErrors(form: String, message: String) async throws {
    let response = await handler.handle(requests.token(form: form))
    #expect(response.status == 400)
    #expect(response.firebaseMessage == message)
  }

  @Test("a refresh after a password change is TOKEN_EXPIRED")
  func refreshAfterPasswordChange() async throws {
    let created = try await signUp()
    clock.advance(by: 5)
    let changed = await handler.handle(
      requests.accounts(
        "update", ["idToken": try #require(created["idToken"]), "password": "another1"]))
    #expect(changed.status == 200)
    let old = try #require(created["refreshToken"] as? String)
    let response = await handler.handle(
      requests.token(
        form: "grant_type=refresh_token&refresh_token="
          + old.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))
    #expect(response.firebaseMessage == "TOKEN_EXPIRED")
  }

  @Test(
    "production hosts and legacy v3 names reach the same operations",
    arguments: [
      "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
      "https://www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k",
      "http://127.0.0.1:9099/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k",
    ])
  func routes(url: String) async throws {
    _ = try await signUp()
    let response = await handler.handle(
      HTTPRequest(
        method: .post, url: URL(string: url)!,
        body: jsonData(["email": "user@example.com", "password": "secret1"])))
    #expect(response.status == 200)
    #expect(response.json["registered"] as? Bool == true)
  }

  @Test("phone sign-in: code listed at verificationCodes, new then existing user")
  func phone() async throws {
    func start() async throws -> String {
      let sent = await handler.handle(
        requests.accounts("sendVerificationCode", ["phoneNumber": "+819012345678"]))
      return try #require(sent.json["sessionInfo"] as? String)
    }
    func code(for session: String) async throws -> String {
      let listed = await handler.handle(
        HTTPRequest(
          method: .get,
          url: URL(string: "http://h/emulator/v1/projects/demo-project/verificationCodes")!))
      let codes = try #require(listed.json["verificationCodes"] as? [[String: Any]])
      let entry = try #require(codes.first { $0["sessionInfo"] as? String == session })
      #expect(entry["phoneNumber"] as? String == "+819012345678")
      return try #require(entry["code"] as? String)
    }
    let first = try await start()
    let wrong = await handler.handle(
      requests.accounts("signInWithPhoneNumber", ["sessionInfo": first, "code": "000000x"]))
    #expect(wrong.firebaseMessage == "INVALID_CODE")
    let signedIn = await handler.handle(
      requests.accounts(
        "signInWithPhoneNumber", ["sessionInfo": first, "code": try await code(for: first)]))
    #expect(signedIn.json["isNewUser"] as? Bool == true)
    #expect(signedIn.json["phoneNumber"] as? String == "+819012345678")
    let second = try await start()
    let again = await handler.handle(
      requests.accounts(
        "signInWithPhoneNumber", ["sessionInfo": second, "code": try await code(for: second)]))
    #expect(again.json["isNewUser"] as? Bool == false)
    #expect(again.json["localId"] as? String == signedIn.json["localId"] as? String)
    let bad = await handler.handle(
      requests.accounts("sendVerificationCode", ["phoneNumber": "09012345678"]))
    #expect(bad.firebaseMessage == "INVALID_PHONE_NUMBER : Invalid format.")
  }

  @Test("signInWithIdp checks SHA-256(raw nonce) against the token's nonce claim")
  func identityProvider() async throws {
    let rawNonce = "raw-nonce-123"
    let token = testIDPToken(
      sub: "apple-sub-1", nonce: Crypto.sha256Hex(rawNonce), email: "apple@example.com")
    func signIn(_ postBody: String) async -> HTTPResponse {
      await handler.handle(
        requests.accounts(
          "signInWithIdp",
          ["postBody": postBody, "requestUri": "http://localhost", "returnSecureToken": true]))
    }
    let first = await signIn("id_token=\(token)&providerId=apple.com&nonce=\(rawNonce)")
    #expect(first.status == 200)
    #expect(first.json["isNewUser"] as? Bool == true)
    #expect(first.json["providerId"] as? String == "apple.com")
    #expect(first.json["email"] as? String == "apple@example.com")
    let tokenClaims = try claims(of: try #require(first.json["idToken"] as? String))
    let firebase = try #require(tokenClaims["firebase"] as? [String: Any])
    #expect(firebase["sign_in_provider"] as? String == "apple.com")
    #expect((firebase["identities"] as? [String: [String]])?["apple.com"] == ["apple-sub-1"])
    let second = await signIn("id_token=\(token)&providerId=apple.com&nonce=\(rawNonce)")
    #expect(second.json["isNewUser"] as? Bool == false)
    #expect(second.json["localId"] as? String == first.json["localId"] as? String)
    let mismatch = await signIn("id_token=\(token)&providerId=apple.com&nonce=other")
    #expect(mismatch.firebaseMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
    let noNonce = await signIn("id_token=\(token)&providerId=apple.com")
    #expect(noNonce.firebaseMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
    let noSubject = await signIn(
      "id_token=\(testIDPToken(sub: nil, nonce: nil))&providerId=apple.com")
    #expect(noSubject.firebaseMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    let expired = await signIn(
      "id_token=\(testIDPToken(sub: "s", nonce: nil, exp: clock.now().timeIntervalSince1970 - 1))"
        + "&providerId=apple.com")
    #expect(expired.firebaseMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    #expect(try store.userCount() == 1)
  }
}
