import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite("FirebaseAuthHandler: accounts and errors", .timeLimit(.minutes(2)))
struct FirebaseAuthHandlerTests {
  let clock = ManualClock()
  let store: UserStore
  let handler: FirebaseAuthHandler
  let requests = FirebaseRequests()

  init() throws {
    store = try makeStore(clock: clock)
    handler = FirebaseAuthHandler(store: store, projectID: "demo-test")
  }

  func signUp(_ email: String = "user@example.com", _ password: String = "secret1")
    async -> HTTPResponse
  {
    await handler.handle(
      requests.accounts(
        "signUp", ["email": email, "password": password, "returnSecureToken": true]))
  }

  @Test("signUp answers the production shape and an unsigned ID token with its claims")
  func signUpShape() async throws {
    let response = await signUp("  User@Example.com ")
    #expect(response.status == 200)
    let body = response.json
    #expect(body["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
    #expect(body["email"] as? String == "user@example.com")
    #expect(body["expiresIn"] as? String == "3600")
    let localID = try #require(body["localId"] as? String)
    #expect((body["refreshToken"] as? String)?.isEmpty == false)
    let idToken = try #require(body["idToken"] as? String)
    #expect(idToken.hasSuffix("."))
    let header =
      try JSONSerialization.jsonObject(
        with: try JSONWebToken(parsing: idToken).header) as? [String: Any]
    #expect(header?["alg"] as? String == "none")
    let claims = try claims(of: idToken)
    let now = Int(clock.now().timeIntervalSince1970)
    #expect(claims["iss"] as? String == "https://securetoken.google.com/demo-test")
    #expect(claims["aud"] as? String == "demo-test")
    #expect(claims["sub"] as? String == localID)
    #expect(claims["user_id"] as? String == localID)
    #expect(claims["iat"] as? Int == now)
    #expect(claims["auth_time"] as? Int == now)
    #expect(claims["exp"] as? Int == now + 3600)
    #expect(claims["email"] as? String == "user@example.com")
    #expect(claims["email_verified"] as? Bool == false)
    let firebase = try #require(claims["firebase"] as? [String: Any])
    #expect(firebase["sign_in_provider"] as? String == "password")
    #expect((firebase["identities"] as? [String: [String]])?["email"] == ["user@example.com"])
  }

  @Test("errors use the envelope with errors[] (EMAIL_EXISTS on a second sign-up)")
  func errorEnvelope() async throws {
    _ = await signUp()
    let response = await signUp()
    #expect(response.status == 400)
    let error = try #require(response.json["error"] as? [String: Any])
    #expect(error["code"] as? Int == 400)
    #expect(error["message"] as? String == "EMAIL_EXISTS")
    let entries = try #require(error["errors"] as? [[String: Any]])
    #expect(entries.count == 1)
    #expect(entries.first?["message"] as? String == "EMAIL_EXISTS")
    #expect(entries.first?["domain"] as? String == "global")
    #expect(entries.first?["reason"] as? String == "invalid")
    #expect(try store.userCount() == 1)
  }

  @Test(
    "sign-up and sign-in input errors carry the production messages",
    arguments: [
      (
        "signUp", ["email": "a@b.c", "password": "12345"],
        "WEAK_PASSWORD : Password should be at least 6 characters"
      ),
      ("signUp", ["email": "", "password": ""], "INVALID_EMAIL"),
      ("signUp", ["email": "not-an-email", "password": "secret1"], "INVALID_EMAIL"),
      ("signUp", ["email": "a@b.c"], "MISSING_PASSWORD"),
      ("signUp", ["password": "secret1"], "MISSING_EMAIL"),
      ("signInWithPassword", ["password": "secret1"], "MISSING_EMAIL"),
      ("signInWithPassword", ["email": "a@@b", "password": "secret1"], "INVALID_EMAIL"),
      ("signInWithPassword", ["email": "user@example.com"], "MISSING_PASSWORD"),
      (
        "signInWithPassword", ["email": "user@example.com", "password": "wrong-pw"],
        "INVALID_LOGIN_CREDENTIALS"
      ),
      (
        "signInWithPassword", ["email": "nobody@example.com", "password": "secret1"],
        "INVALID_LOGIN_CREDENTIALS"
      ),
    ] as [(String, [String: String], String)])
  func inputErrors(operation: String, body: [String: String], message: String) async throws {
    _ = await signUp()
    let response = await handler.handle(requests.accounts(operation, body))
    #expect(response.status == 400)
    #expect(response.firebaseMessage == message)
  }

  @Test("a missing API key is 403 PERMISSION_DENIED; x-goog-api-key is accepted")
  func apiKey() async throws {
    var noKey = FirebaseRequests()
    noKey.apiKey = nil
    let denied = await handler.handle(noKey.accounts("signUp", [:]))
    #expect(denied.status == 403)
    let error = try #require(denied.json["error"] as? [String: Any])
    #expect(error["status"] as? String == "PERMISSION_DENIED")
    #expect(try store.userCount() == 0)
    var header = noKey.accounts("signUp", [:])
    header.headerFields["x-goog-api-key"] = "any-non-empty"
    #expect(await handler.handle(header).status == 200)
  }

  @Test("an empty signUp creates an anonymous user")
  func anonymous() async throws {
    let response = await handler.handle(requests.accounts("signUp", ["returnSecureToken": true]))
    #expect(response.status == 200)
    #expect(response.json["email"] as? String == "")
    let claims = try claims(of: try #require(response.json["idToken"] as? String))
    #expect(claims["provider_id"] as? String == "anonymous")
    #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "anonymous")
    let localID = try #require(response.json["localId"] as? String)
    let user = try #require(try store.user(id: localID))
    #expect(user.isAnonymous)
  }

  @Test("signInWithPassword answers registered: true and a fresh ID token")
  func signIn() async throws {
    let created = await signUp()
    let response = await handler.handle(
      requests.accounts(
        "signInWithPassword", ["email": "USER@example.com", "password": "secret1"]))
    #expect(response.status == 200)
    #expect(response.json["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
    #expect(response.json["registered"] as? Bool == true)
    #expect(response.json["localId"] as? String == created.json["localId"] as? String)
    #expect(response.json["displayName"] as? String == "")
  }

  @Test("a disabled account cannot sign in: USER_DISABLED")
  func disabled() async throws {
    let created = await signUp()
    try store.setDisabled(userID: try #require(created.json["localId"] as? String), true)
    let response = await handler.handle(
      requests.accounts("signInWithPassword", ["email": "user@example.com", "password": "x"]))
    #expect(response.firebaseMessage == "USER_DISABLED")
  }

  @Test("lookup, update, delete with an ID token")
  func accountLifecycle() async throws {
    let created = await signUp()
    let idToken = try #require(created.json["idToken"] as? String)
    let lookup = await handler.handle(requests.accounts("lookup", ["idToken": idToken]))
    let users = try #require(lookup.json["users"] as? [[String: Any]])
    #expect(users.first?["email"] as? String == "user@example.com")
    #expect(
      (users.first?["providerUserInfo"] as? [[String: Any]])?.first?["providerId"]
        as? String == "password")
    let update = await handler.handle(
      requests.accounts("update", ["idToken": idToken, "displayName": "Ada"]))
    #expect(update.status == 200)
    #expect(update.json["displayName"] as? String == "Ada")
    #expect(try store.user(email: "user@example.com")?.displayName == "Ada")
    let deleted = await handler.handle(requests.accounts("delete", ["idToken": idToken]))
    #expect(deleted.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
    let after = await handler.handle(requests.accounts("lookup", ["idToken": idToken]))
    #expect(after.firebaseMessage == "USER_NOT_FOUND")
  }

  @Test("ID token checks: garbage, expiry by the store clock, revocation by password change")
  func idTokenValidation() async throws {
    let created = await signUp()
    let idToken = try #require(created.json["idToken"] as? String)
    let garbage = await handler.handle(requests.accounts("lookup", ["idToken": "abc"]))
    #expect(garbage.firebaseMessage == "INVALID_ID_TOKEN")
    clock.advance(by: 10)
    let changed = await handler.handle(
      requests.accounts("update", ["idToken": idToken, "password": "new-secret"]))
    #expect(changed.status == 200)
    let fresh = try #require(changed.json["idToken"] as? String)
    let revoked = await handler.handle(requests.accounts("lookup", ["idToken": idToken]))
    #expect(revoked.firebaseMessage == "TOKEN_EXPIRED")
    #expect(await handler.handle(requests.accounts("lookup", ["idToken": fresh])).status == 200)
    let weak = await handler.handle(
      requests.accounts("update", ["idToken": fresh, "password": "123"]))
    #expect(weak.firebaseMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
    clock.advance(by: 3600)
    let expired = await handler.handle(requests.accounts("lookup", ["idToken": fresh]))
    #expect(expired.firebaseMessage == "INVALID_ID_TOKEN")
  }

  @Test("sendOobCode PASSWORD_RESET is recorded and listed at oobCodes")
  func passwordReset() async throws {
    _ = await signUp()
    let response = await handler.handle(
      requests.accounts(
        "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "User@example.com"]))
    #expect(response.status == 200)
    #expect(response.json["email"] as? String == "user@example.com")
    #expect(try store.passwordResetRequests().map(\.email) == ["user@example.com"])
    let listed = await handler.handle(
      HTTPRequest(
        method: .get, url: URL(string: "http://h/emulator/v1/projects/demo-test/oobCodes")!))
    #expect(
      (listed.json["oobCodes"] as? [[String: Any]])?.first?["email"] as? String
        == "user@example.com")
    let missing = await handler.handle(requests.accounts("sendOobCode", ["email": "a@b.c"]))
    #expect(missing.firebaseMessage == "MISSING_REQ_TYPE")
  }

  @Test("DELETE /emulator/v1/projects/{id}/accounts removes every account")
  func deleteAll() async throws {
    _ = await signUp("a@example.com")
    _ = await signUp("b@example.com")
    let response = await handler.handle(
      HTTPRequest(
        method: .delete, url: URL(string: "http://h/emulator/v1/projects/demo-test/accounts")!))
    #expect(response.status == 200)
    #expect(try store.userCount() == 0)
  }

  @Test(
    "unserved operations are 501, unknown paths 404",
    arguments: [
      ("http://h/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k", 501),
      ("http://h/www.googleapis.com/identitytoolkit/v3/relyingparty/createAuthUri?key=k", 501),
      ("http://h/identitytoolkit.googleapis.com/v1/accounts:nope?key=k", 404),
      ("http://h/nothing/here", 404),
      ("http://h/emulator/v1/projects/demo-test/unknown", 404),
    ])
  func unserved(url: String, status: Int) async throws {
    let response = await handler.handle(
      HTTPRequest(method: .post, url: URL(string: url)!, body: Data("{}".utf8)))
    #expect(response.status == status)
  }

  @Test("a body that is not a JSON object is 400 INVALID_ARGUMENT")
  func invalidJSON() async throws {
    var request = requests.accounts("signUp", [:])
    request.body = Data("[1,2".utf8)
    let response = await handler.handle(request)
    #expect(response.status == 400)
    #expect((response.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")
  }

  @Test("changing the email is allowed, as with enumeration protection off (issue 20)")
  func emailChange() async throws {
    let created = await signUp()
    let response = await handler.handle(
      requests.accounts(
        "update",
        ["idToken": try #require(created.json["idToken"] as? String), "email": "new@example.com"]))
    #expect(response.status == 200)
    #expect(try store.user(email: "user@example.com") == nil)
    #expect(try store.user(email: "new@example.com") != nil)
  }
}
