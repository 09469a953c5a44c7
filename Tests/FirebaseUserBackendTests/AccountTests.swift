import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase accounts and sessions", .timeLimit(.minutes(2)))
struct AccountTests {
  @Test(
    "bad input is refused before any request",
    arguments: [
      (PasswordCredential.username("alice", password: "s3cret-pw"), "unsupported"),
      (.email("", password: "s3cret-pw"), "invalidInput"),
      (.email("not-an-email", password: "s3cret-pw"), "invalidEmail"),
      (.email("alice@example.com", password: ""), "invalidInput"),
    ])
  func validation(credential: PasswordCredential, expected: String) async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    for operation in ["signUp", "signIn"] {
      let error = await #expect(throws: UserBackendError.self) {
        _ =
          operation == "signUp"
          ? try await backend.signUp(credential) : try await backend.signIn(credential)
      }
      #expect(error?.code.name == expected)
    }
    #expect(server.count == 0)
  }

  @Test("a user name identifier names the usernamePassword capability")
  func usernameUnsupported() async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.username("alice", password: "s3cret-pw"))
    }
    #expect(error?.code == .unsupported(capability: .usernamePassword))
    #expect(server.count == 0)
  }

  @Test("a short password is weakPassword(6) before any request")
  func weakPassword() async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    await #expect(throws: UserBackendError(.weakPassword(minimumLength: 6))) {
      _ = try await backend.signUp(.email("alice@example.com", password: "12345"))
    }
    #expect(server.count == 0)
  }

  @Test("sign-up stores the session with expiresAt from expiresIn on the device clock")
  func signUpStoresSession() async throws {
    let clock = ManualClock(Fixture.start)
    let exp = Fixture.start.addingTimeInterval(1800)  // differs from expiresIn 3600: unused
    let token = Fixture.idToken(exp: exp)
    let server = StubTransport(json: Fixture.signInBody(idToken: token))
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let session = try await backend.signUp(.email("Alice@Example.com", password: "s3cret-pw"))
    #expect(session.isNewUser)
    #expect(session.bearerToken == token)
    #expect(session.refreshToken == Fixture.refreshToken)
    #expect(session.expiresAt == Fixture.start.addingTimeInterval(3600))
    #expect(session.user == User(id: "uid-1", email: "alice@example.com", providers: ["password"]))
    #expect(try await store.load().session == session)
  }

  @Test("without a readable exp the lifetime comes from expiresIn")
  func expiresInFallback() async throws {
    let clock = ManualClock(Fixture.start)
    // A readable ID token for the user, without exp or iat.
    let token = JSONWebToken.unsigned(claims: ["sub": "uid-1", "user_id": "uid-1"])
    let server = StubTransport(json: Fixture.signInBody(idToken: token))
    let backend = try Fixture.backend(server, clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    #expect(session.expiresAt == Fixture.start.addingTimeInterval(3600))
    #expect(!session.isNewUser)
  }

  @Test("anonymous sign-in gives an anonymous user")
  func anonymous() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(
      uid: "anon-1", exp: Fixture.start.addingTimeInterval(3600), provider: "anonymous",
      email: nil)
    let server = StubTransport(
      json:
        #"{"idToken":"\#(token)","email":"","refreshToken":"r-anon","expiresIn":"3600","localId":"anon-1"}"#
    )
    let backend = try Fixture.backend(server, clock: clock)
    let session = try await backend.signInAnonymously()
    #expect(session.user == User(id: "anon-1", providers: ["anonymous"], isAnonymous: true))
    #expect(session.isNewUser)
  }

  @Test("currentUser reads the store and makes no request")
  func currentUserOffline() async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(
      server, store: Fixture.signedInStore(clock: clock), clock: clock)
    clock.advance(by: 7200)  // even with an expired ID token
    #expect(try await backend.currentUser()?.id == "uid-1")
    #expect(server.count == 0)
  }

  @Test("sign-out is local, keeps a pending phone verification, and can repeat")
  func signOut() async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport(json: "{}")
    let pending = PendingPhoneVerification(
      verificationID: "v-1", phoneNumber: "+15555550100", requestedAt: Fixture.start)
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(3600)),
        pendingPhoneVerification: pending))
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let events = EventRecorder(backend.authStateChanges)
    _ = await events.events(atLeast: 1)

    try await backend.signOut()
    try await backend.signOut()
    #expect(server.count == 0)
    #expect(try await store.load() == PersistedAuthState(pendingPhoneVerification: pending))
    #expect(await events.events(atLeast: 2) == [.initialState, .signedOut])
    await #expect(throws: UserBackendError(.notSignedIn)) { _ = try await backend.idToken() }
  }

  @Test("reload reads the user with accounts:lookup and stores it")
  func reloadUser() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Fixture.server(clock: clock)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let user = try await backend.reload()
    #expect(
      user
        == User(
          id: "uid-1", email: "alice@example.com", displayName: "Alice", providers: ["password"],
          createdAt: Date(timeIntervalSince1970: 1_767_225_000)))
    #expect(try await backend.currentUser() == user)
    #expect(server.requests.map(\.operation) == ["accounts:lookup"])
  }

  @Test("an ID token refused by lookup is refreshed once and the call retried")
  func lookupRetry() async throws {
    let clock = ManualClock(Fixture.start)
    let normal = Fixture.server(clock: clock)
    let server = StubTransport { request in
      if request.operation == "accounts:lookup" && normal.count == 0 {
        _ = try await normal.send(request)  // count the first lookup, then refuse it
        return StubTransport.json(400, Fixture.errorBody("INVALID_ID_TOKEN"))
      }
      return try await normal.send(request)
    }
    let backend = try Fixture.backend(
      server, store: Fixture.signedInStore(clock: clock), clock: clock)
    let user = try await backend.reload()
    #expect(user.displayName == "Alice")
    #expect(server.requests.map(\.operation) == ["accounts:lookup", "token", "accounts:lookup"])
  }

  @Test(
    "a deleted user found by lookup clears the session",
    arguments: ["USER_NOT_FOUND", "USER_DISABLED"])
  func lookupUserGone(code: String) async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport(status: 400, json: Fixture.errorBody(code))
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) { _ = try await backend.reload() }
    #expect(error?.code == .sessionExpired)
    #expect(try await store.load().session == nil)
    #expect(server.count == 1)
  }

  @Test("deleteAccount refreshes an expiring ID token, deletes with it, then clears")
  func deleteAccount() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Fixture.server(clock: clock)
    let store = InMemorySessionStore(
      PersistedAuthState(session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(60))))
    let backend = try Fixture.backend(server, store: store, clock: clock)
    try await backend.deleteAccount()
    #expect(server.requests.map(\.operation) == ["token", "accounts:delete"])
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600))
    #expect(server.requests.last?.bodyText == #"{"idToken":"\#(fresh)"}"#)
    #expect(try await store.load().session == nil)
  }

  @Test("deleteAccount keeps the session when the network fails")
  func deleteAccountOffline() async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport { _ in throw HTTPTransportError.connectionFailed(reason: "offline") }
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) { try await backend.deleteAccount() }
    #expect(error?.code.name == "network")
    #expect(try await store.load().session != nil)
  }

  @Test("updatePassword stores the new tokens")
  func updatePassword() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Fixture.server(clock: clock)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    try await backend.updatePassword("n3w-password")
    #expect(try await store.load().session?.refreshToken == "AMf-refresh-token-0002")
  }

  @Test("a second factor requirement is reported as unsupported")
  func multiFactor() async throws {
    let server = StubTransport(
      json:
        #"{"localId":"uid-1","email":"alice@example.com","mfaPendingCredential":"p","mfaInfo":[]}"#)
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error?.code == .unsupported(capability: "multiFactorAuthentication"))
  }

  @Test("auth state changes: initial, signed in, signed out")
  func authStateChanges() async throws {
    let clock = ManualClock(Fixture.start)
    let backend = try Fixture.backend(Fixture.server(clock: clock), clock: clock)
    let events = EventRecorder(backend.authStateChanges)
    _ = await events.events(atLeast: 1)
    _ = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    try await backend.signOut()
    #expect(await events.events(atLeast: 3) == [.initialState, .signedIn, .signedOut])
  }
}
