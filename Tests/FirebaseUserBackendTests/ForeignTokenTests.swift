import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Answers that carry another user's tokens for the signed-in user's session (refresh,
/// `accounts:update`, re-authentication) are `.malformedResponse`: nothing is stored, the
/// old session stays, no token is returned.
@Suite("Firebase: tokens of another user", .timeLimit(.minutes(1)))
struct ForeignTokenTests {
  /// The tokens a hostile or broken server hands out: the ID token's `sub` and the
  /// answer's user ID can each name someone else.
  enum Foreign: String, CaseIterable, CustomTestStringConvertible {
    case answeredUserID, tokenSubject, both
    var testDescription: String { rawValue }
    var userID: String { self == .tokenSubject ? "uid-1" : "someone-else" }
    var subject: String { self == .answeredUserID ? "uid-1" : "someone-else" }
  }

  private static func foreignToken(_ foreign: Foreign, clock: ManualClock) -> String {
    Fixture.idToken(
      uid: foreign.subject, exp: clock.now().addingTimeInterval(3600), serial: 9)
  }

  private static func expectMalformed(_ error: UserBackendError) {
    guard case .malformedResponse = error.code else {
      Issue.record("expected malformedResponse, got \(error)")
      return
    }
    #expect(!error.description.contains("AMf-foreign-refresh"))
  }

  @Test("a token refresh answered for another user", arguments: Foreign.allCases)
  func refresh(_ foreign: Foreign) async throws {
    let clock = ManualClock(Fixture.start)
    let token = Self.foreignToken(foreign, clock: clock)
    let body = """
      {"expires_in":"3600","token_type":"Bearer","refresh_token":"AMf-foreign-refresh",\
      "id_token":"\(token)","user_id":"\(foreign.userID)","project_id":"1"}
      """
    let server = StubTransport(json: body)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let error = await #expect(throws: UserBackendError.self) {
      try await backend.idToken(forceRefresh: true)
    }
    #expect(server.count == 1)
    if let error { Self.expectMalformed(error) }
    #expect(try await store.load() == before)
  }

  /// The ID token must always be a readable JWT whose `sub` is the user (so an opaque one
  /// is refused even when `user_id` names the user); `user_id` may be left out.
  @Test(
    "a token refresh answer whose ID token does not name the user is refused",
    arguments: [(false, false, false), (true, false, false), (false, true, true)])
  func refreshNamingNobody(sendsUserID: Bool, tokenHasSubject: Bool, taken: Bool) async throws {
    let clock = ManualClock(Fixture.start)
    let token =
      tokenHasSubject
      ? Fixture.idToken(uid: "uid-1", exp: clock.now().addingTimeInterval(3600), serial: 9)
      : "opaque-id-token-without-claims"
    let userID = sendsUserID ? #","user_id":"uid-1""# : ""
    let server = StubTransport(
      json: """
        {"expires_in":"3600","token_type":"Bearer","refresh_token":"AMf-foreign-refresh",\
        "id_token":"\(token)"\(userID)}
        """)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Fixture.backend(server, store: store, clock: clock)
    do {
      let refreshed = try await backend.idToken(forceRefresh: true)
      #expect(taken, "an answer naming nobody was stored")
      #expect(refreshed == token)
    } catch {
      #expect(!taken, "\(error)")
      Self.expectMalformed(error)
      #expect(try await store.load() == before)
    }
  }

  /// The operations that send `accounts:update` and store the tokens it answers.
  enum Update: String, CaseIterable, CustomTestStringConvertible {
    case password, email, profile, link
    var testDescription: String { rawValue }
  }

  @Test("accounts:update answering another user's tokens", arguments: Update.allCases)
  func update(_ operation: Update) async throws {
    let clock = ManualClock(Fixture.start)
    let token = Self.foreignToken(.tokenSubject, clock: clock)
    let server = StubTransport(
      json: """
        {"localId":"uid-1","email":"alice@example.com","idToken":"\(token)",\
        "refreshToken":"AMf-foreign-refresh","expiresIn":"3600"}
        """)
    var session = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    if operation == .link {
      session.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
    }
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let before = try await store.load()
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let error = await #expect(throws: UserBackendError.self) {
      switch operation {
      case .password: try await backend.updatePassword("new-password-1")
      case .email: _ = try await backend.updateEmail("bob@example.com")
      case .profile: _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
      case .link:
        _ = try await backend.linkPassword(
          .email("bob@example.com", password: "new-password-1"))
      }
    }
    #expect(server.count == 1)
    if let error { Self.expectMalformed(error) }
    #expect(try await store.load() == before)
  }

  @Test("re-authentication whose ID token is another user's")
  func reauthenticate() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Self.foreignToken(.tokenSubject, clock: clock)
    let server = StubTransport(
      json: Fixture.signInBody(idToken: token, refreshToken: "AMf-foreign-refresh"))
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let error = await #expect(throws: UserBackendError.self) {
      try await backend.reauthenticate(
        .email("alice@example.com", password: "password-1"))
    }
    if let error { Self.expectMalformed(error) }
    #expect(try await store.load() == before)
  }

  /// The sign-in answers: their `localId` and their ID token's `sub` must agree.
  enum SignIn: String, CaseIterable, CustomTestStringConvertible {
    case signUp, password, anonymous, phone, identityProvider
    var testDescription: String { rawValue }
  }

  @Test("a sign-in whose ID token is for another user than its localId", arguments: SignIn.allCases)
  func signIn(_ flow: SignIn) async throws {
    let clock = ManualClock(Fixture.start)
    let token = Self.foreignToken(.tokenSubject, clock: clock)
    let server = StubTransport(
      json: Fixture.signInBody(
        idToken: token, refreshToken: "AMf-foreign-refresh", extra: #","isNewUser":true"#))
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let error = await #expect(throws: UserBackendError.self) {
      try await Self.run(flow, on: backend)
    }
    if let error { Self.expectMalformed(error) }
    #expect(try await store.load().session == nil)
  }

  static func run(_ flow: SignIn, on backend: FirebaseUserBackend) async throws {
    let credential = PasswordCredential.email("alice@example.com", password: "password-1")
    switch flow {
    case .signUp: _ = try await backend.signUp(credential)
    case .password: _ = try await backend.signIn(credential)
    case .anonymous: _ = try await backend.signInAnonymously()
    case .phone: _ = try await backend.signIn(verificationID: "SESSION-INFO-1", code: "123456")
    case .identityProvider:
      _ = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: Fixture.idToken(exp: Fixture.start), rawNonce: "n"))
    }
  }
}
