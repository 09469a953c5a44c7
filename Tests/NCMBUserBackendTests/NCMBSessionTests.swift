import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite("NCMB sessions", .timeLimit(.minutes(2)))
struct NCMBSessionTests {
  @Test("sign-up stores the session; the user maps objectId, userName, mailAddress")
  func signUpStoresSession() async throws {
    let transport = StubTransport([
      Fixture.response(
        201,
        #"{"createDate":"2013-08-28T11:27:16.446Z","objectId":"epaKcaYZqsREdSMY","#
          + #""sessionToken":"\#(Fixture.sessionToken)","userName":"alice@example.com","#
          + #""authData":null}"#)
    ])
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(transport, store: store)
    let session = try await backend.signUp(.email("alice@example.com", password: "secret1"))
    let expected = User(
      id: "epaKcaYZqsREdSMY", email: "alice@example.com", username: "alice@example.com",
      providers: ["password"],
      createdAt: try Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        .parse("2013-08-28T11:27:16.446Z"))
    #expect(session.user == expected)
    #expect(session.bearerToken == Fixture.sessionToken)
    #expect(session.refreshToken == nil && session.expiresAt == nil && session.isNewUser)
    #expect(try await store.load().session == session)
    #expect(try await backend.idToken() == Fixture.sessionToken)
  }

  @Test("the session survives a restart on the same store, with no request")
  func restart() async throws {
    let store = InMemorySessionStore()
    let first = try Fixture.backend(
      StubTransport([Fixture.response(200, Fixture.loginJSON)]), store: store)
    let session = try await first.signIn(.username("alice", password: "secret1"))

    let transport = StubTransport()
    let second = try Fixture.backend(transport, store: store)
    #expect(try await second.currentUser() == session.user)
    #expect(try await second.idToken(forceRefresh: false) == Fixture.sessionToken)
    #expect(transport.requests.isEmpty)
  }

  @Test(
    "sign-out clears the session when the server rejects the token",
    arguments: ["E401001", "E404001"])
  func signOutRejected(_ code: String) async throws {
    let status = Int(code.dropFirst().prefix(3)) ?? 0
    let transport = StubTransport([
      Fixture.response(status, #"{"code":"\#(code)","error":"gone."}"#)
    ])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    try await backend.signOut()
    #expect(try await store.load().session == nil)
    #expect(transport.requests.count == 1)
    #expect(
      transport.requests.first?.headerFields["X-NCMB-Apps-Session-Token"] == Fixture.sessionToken)
  }

  @Test("sign-out clears the session when the network fails, and says so")
  func signOutOffline() async throws {
    let transport = StubTransport([.failure(.connectionFailed(reason: "offline"))])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    var changes = backend.authStateChanges.makeAsyncIterator()
    #expect(await changes.next()?.user?.id == "epaKcaYZqsREdSMY")
    let error = try await #require(throws: UserBackendError.self) { try await backend.signOut() }
    #expect(error.code.name == "network")
    #expect(try await store.load().session == nil)
    #expect(try await backend.currentUser() == nil)
    #expect(await changes.next() == AuthStateChange(.signedOut, user: nil))
  }

  @Test("signing out when signed out sends nothing and does not throw")
  func signOutTwice() async throws {
    let transport = StubTransport([Fixture.response(200, "{}")])
    let backend = try Fixture.backend(transport, store: Fixture.signedInStore())
    try await backend.signOut()
    try await backend.signOut()
    #expect(transport.requests.count == 1)
  }

  @Test("idToken: notSignedIn when nobody is; forceRefresh validates with a fetch")
  func idToken() async throws {
    let transport = StubTransport([
      Fixture.response(
        200,
        #"{"objectId":"epaKcaYZqsREdSMY","userName":"alice","mailAddress":"a@example.com","#
          + #""authData":{"apple":{"id":"s"},"anonymous":null}}"#)
    ])
    let signedOut = try Fixture.backend(StubTransport())
    let error = try await #require(throws: UserBackendError.self) {
      try await signedOut.idToken(forceRefresh: true)
    }
    #expect(error.code == .notSignedIn)

    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    #expect(try await backend.idToken(forceRefresh: true) == Fixture.sessionToken)
    #expect(transport.requests.map(\.method) == [.get])
    let user = try #require(try await store.load().session?.user)
    #expect(user.email == "a@example.com")
    #expect(user.providers == ["apple.com", "password"])
  }

  @Test("auth state changes: initial state, sign-in, sign-out")
  func authStateChanges() async throws {
    let transport = StubTransport([
      Fixture.response(200, Fixture.loginJSON), Fixture.response(200, "{}"),
    ])
    let backend = try Fixture.backend(transport)
    var changes = backend.authStateChanges.makeAsyncIterator()
    #expect(await changes.next() == AuthStateChange(.initialState, user: nil))
    let session = try await backend.signIn(.username("alice", password: "secret1"))
    try await backend.signOut()
    #expect(await changes.next() == AuthStateChange(.signedIn, user: session.user))
    #expect(await changes.next() == AuthStateChange(.signedOut, user: nil))
  }

  @Test(
    "bad input fails before any request, naming the field",
    arguments: [
      ("email", PasswordCredential.email("", password: "secret1")),
      ("password", PasswordCredential.username("alice", password: "")),
      ("username", PasswordCredential.username("  ", password: "secret1")),
    ])
  func validation(_ field: String, _ credential: PasswordCredential) async throws {
    let transport = StubTransport()
    let backend = try Fixture.backend(transport)
    for operation in ["signUp", "signIn"] {
      let error = try await #require(throws: UserBackendError.self) {
        if operation == "signUp" {
          _ = try await backend.signUp(credential)
        } else {
          _ = try await backend.signIn(credential)
        }
      }
      guard case .invalidInput(let named, _) = error.code else {
        Issue.record("expected invalidInput, got \(error)")
        continue
      }
      #expect(named == field)
    }
    #expect(transport.requests.isEmpty)
  }

  @Test("weak passwords, malformed emails and bad ID tokens fail before any request")
  func moreValidation() async throws {
    let transport = StubTransport()
    let backend = try Fixture.backend(transport)
    await #expect(throws: UserBackendError(.weakPassword(minimumLength: 6))) {
      _ = try await backend.signUp(.username("alice", password: "12345"))
    }
    await #expect(throws: UserBackendError(.invalidEmail)) {
      try await backend.sendPasswordReset(email: "not-an-email")
    }
    for (token, nonce) in [
      ("", nil), ("abc", nil), (JSONWebToken.unsigned(claims: ["aud": "x"]), nil),
    ] as [(String, String?)] {
      let error = try await #require(throws: UserBackendError.self) {
        _ = try await backend.signIn(
          with: IdentityProviderCredential(provider: "apple.com", idToken: token, rawNonce: nonce))
      }
      #expect(error.code.name == "invalidInput")
    }
    let wrongNonce = try await #require(throws: UserBackendError.self) {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com",
          idToken: JSONWebToken.unsigned(claims: ["sub": "s", "nonce": "abc"]), rawNonce: "raw",
          authorizationCode: "code"))
    }
    #expect(wrongNonce.code == .invalidCredentials)
    await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(provider: "google.com", idToken: "a.b.c", rawNonce: nil))
    }
    await #expect(throws: UserBackendError(.notSignedIn)) { try await backend.deleteAccount() }
    #expect(transport.requests.isEmpty)
  }

  @Test("Sign in with Apple: 201 is a new user, 200 an existing one", arguments: [201, 200])
  func appleNewUser(_ status: Int) async throws {
    let transport = StubTransport([
      Fixture.response(
        status,
        #"{"objectId":"apl1","userName":"r4nd0m","mailAddress":null,"sessionToken":"t2","#
          + #""authData":{"apple":{"id":"001234.abcd"}}}"#)
    ])
    let backend = try Fixture.backend(
      transport, configuration: Fixture.configuration(appleClientID: "com.example.override"))
    let token = JSONWebToken.unsigned(claims: ["sub": "001234.abcd", "aud": "com.example.app"])
    let session = try await backend.signIn(
      with: IdentityProviderCredential(
        provider: "apple.com", idToken: token, rawNonce: nil, authorizationCode: "code-1"))
    #expect(session.isNewUser == (status == 201))
    #expect(session.user.providers == ["apple.com"])
    #expect(!session.user.isAnonymous)
    let body = try #require(transport.requests.first?.body)
    #expect(String(decoding: body, as: UTF8.self).contains(#""client_id":"com.example.override""#))
  }

  @Test("anonymous users are anonymous")
  func anonymous() async throws {
    let transport = StubTransport([
      Fixture.response(
        201,
        #"{"objectId":"anon1","userName":"ljmuJgf4ri","sessionToken":"t1","#
          + #""authData":{"anonymous":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}}}"#)
    ])
    let backend = try Fixture.backend(transport)
    let session = try await backend.signInAnonymously()
    #expect(
      session.user
        == User(id: "anon1", username: "ljmuJgf4ri", providers: ["anonymous"], isAnonymous: true))
    #expect(session.isNewUser)
  }

  @Test("deleting the account clears the session")
  func delete() async throws {
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(StubTransport([Fixture.response(200, "")]), store: store)
    try await backend.deleteAccount()
    #expect(try await store.load().session == nil)
  }
}
