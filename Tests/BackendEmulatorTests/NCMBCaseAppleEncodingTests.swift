import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Issue 21 items 8–10 on the emulator: the Apple `authData` shape with an authorization
/// code, case-sensitive user names, and refusal of non-canonical percent-encoding.
@Suite("Emulator: NCMB user-name case, Apple shapes, canonical encoding", .timeLimit(.minutes(2)))
struct NCMBCaseAppleEncodingTests {
  let store: UserStore
  let handler: NCMBHandler
  let requests = NCMBRequests()

  init() throws {
    store = try makeStore()
    handler = NCMBHandler(store: store)
  }

  func login(_ fields: [String: String]) async -> HTTPResponse {
    await handler.handle(requests.request(.post, "/2013-09-01/login", body: fields))
  }

  @Test("userName is case-sensitive, for NCMB accounts and for Firebase-created ones")
  func userNameCase() async throws {
    let created = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: ["userName": "Ada@Example.com", "password": "secret1"]))
    #expect(created.status == 201)
    #expect(await login(["userName": "Ada@Example.com", "password": "secret1"]).status == 200)
    let lower = await login(["userName": "ada@example.com", "password": "secret1"])
    #expect(lower.ncmbCode == "E401002")
    // An account made through the Firebase API: its user name is its canonical email.
    _ = try store.createUser(NewUser(email: "bob@example.com", password: "secret1"))
    #expect(await login(["userName": "bob@example.com", "password": "secret1"]).status == 200)
    let upper = await login(["userName": "Bob@Example.com", "password": "secret1"])
    #expect(upper.ncmbCode == "E401002")
  }

  @Test(
    "the adapter signs in an account another SDK created as Ada@Example.com",
    arguments: EmulatorPath.allCases)
  func adapterMixedCase(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      let other = NCMBHandler(store: rig.store)
      // As another SDK signs up: the user name as typed, and a mail address.
      let created = await other.handle(
        requests.request(
          .post, "/2013-09-01/users",
          body: [
            "userName": "Ada@Example.com", "password": "secret1", "mailAddress": "Ada@Example.com",
          ]))
      #expect(created.status == 201)
      let backend = try rig.ncmb()
      // Another spelling reaches it only by the mail-address login, which needs a
      // confirmed address (as on the service).
      let unconfirmed = await #expect(throws: UserBackendError.self) {
        _ = try await backend.signIn(.email("ada@example.com", password: "secret1"))
      }
      #expect(unconfirmed?.code == .invalidCredentials)
      _ = try await backend.signIn(.email("Ada@Example.com", password: "secret1"))
      try await backend.signOut()
      try rig.store.setEmailVerified(
        userID: try #require(created.json["objectId"] as? String), true)
      for typed in ["Ada@Example.com", "ada@example.com", " ADA@example.COM "] {
        let session = try await backend.signIn(.email(typed, password: "secret1"))
        #expect(session.user.id == created.json["objectId"] as? String)
        try await backend.signOut()
      }
      await #expect(throws: UserBackendError.self) {
        _ = try await backend.signIn(.email("Ada@Example.com", password: "wrong-password"))
      }
      // Accounts this adapter creates keep one account per address, whatever its case.
      _ = try await backend.signUp(.email("Grace@Example.org", password: "secret1"))
      try await backend.signOut()
      await #expect(throws: UserBackendError.self) {
        _ = try await backend.signUp(.email("grace@example.org", password: "secret1"))
      }
      #expect(
        try await backend.signIn(.email("GRACE@example.org", password: "secret1")).user
          .username == "grace@example.org")
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test("authData.apple with an authorization code (not a JWT) signs up, then in")
  func appleAuthorizationCode() async throws {
    let body: [String: Any] = [
      "authData": [
        "apple": [
          "id": "001234.abcd", "access_token": "c9f3.0.nrwq.AUTHCODE",
          "client_id": "com.example.app",
        ]
      ]
    ]
    let first = await handler.handle(requests.request(.post, "/2013-09-01/users", body: body))
    #expect(first.status == 201)
    let again = await handler.handle(requests.request(.post, "/2013-09-01/users", body: body))
    #expect(again.status == 200)
    #expect(again.json["objectId"] as? String == first.json["objectId"] as? String)
  }

  @Test("Firebase signInWithIdp stores Apple's user name as the display name")
  func firebaseAppleName() async throws {
    let firebase = FirebaseAuthHandler(store: store)
    let token = testIDPToken(sub: "apple-name-1", nonce: nil)
    let user = #"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#
    let form = FormURLEncoding.encode([
      ("id_token", token), ("providerId", "apple.com"), ("user", user),
    ])
    let response = await firebase.handle(
      FirebaseRequests().accounts(
        "signInWithIdp",
        ["postBody": form, "requestUri": "http://localhost", "returnSecureToken": true]))
    #expect(response.status == 200)
    #expect(response.json["displayName"] as? String == "Ada Lovelace")
  }

  @Test(
    "a GET signed over lower-case or malformed escapes is 403 E403002",
    arguments: [
      "/2013-09-01/login?userName=a%3ab&password=secret1",
      "/2013-09-01/users/x%2fy",
      "/2013-09-01/login?userName=%7b&password=secret1",
    ])
  func nonCanonicalEscapes(_ pathAndQuery: String) async throws {
    _ = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": "a:b", "password": "secret1"]))
    let response = await handler.handle(requests.request(.get, pathAndQuery))
    #expect(response.status == 403)
    #expect(response.ncmbCode == "E403002")
    let upper = await handler.handle(
      requests.request(.get, "/2013-09-01/login?userName=a%3Ab&password=secret1"))
    #expect(upper.status == 200)
  }
}
