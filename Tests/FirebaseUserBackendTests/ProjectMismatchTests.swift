import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// F5: with a project ID configured and an API key (or Auth emulator) of another project,
/// the server hands out ID tokens whose `aud` is that other project. Every answer that
/// carries a new ID token is then `.misconfigured(setting: "projectID")` naming both
/// projects (before: `.malformedResponse`, which hid that the configuration is wrong); no
/// session is stored and a stored one stays. A sign-up (or a first sign-in) that created
/// the account deletes it again with the token it was handed, so nothing is left behind
/// that this configuration could never reach; an existing account is never deleted.
@Suite("Firebase: an ID token of another project is a configuration error", .timeLimit(.minutes(1)))
struct ProjectMismatchTests {
  static let other = "other-project"

  /// An ID token for `uid-1` issued by `other-project` (`aud` and `iss`).
  static func foreignToken(clock: ManualClock) -> String {
    let exp = Int(clock.now().timeIntervalSince1970) + 3600
    return JSONWebToken.unsigned(claims: [
      "sub": "uid-1", "user_id": "uid-1", "aud": other,
      "iss": "https://securetoken.google.com/\(other)", "exp": exp, "iat": exp - 3600,
      "email": "alice@example.com", "firebase": ["sign_in_provider": "password"],
    ])
  }

  /// A server issuing `foreignToken` from every token endpoint; `accounts:delete` answers
  /// `deleteStatus`.
  static func server(clock: ManualClock, deleteStatus: Int = 200) -> StubTransport {
    let token = foreignToken(clock: clock)
    return StubTransport { request in
      switch request.operation {
      case "accounts:delete":
        return deleteStatus == 200
          ? StubTransport.json(200, "{}")
          : StubTransport.json(deleteStatus, Fixture.errorBody("INTERNAL_ERROR", status: 500))
      case "token":
        return StubTransport.json(200, Fixture.tokenBody(idToken: token))
      case "accounts:update":
        return StubTransport.json(
          200,
          """
          {"localId":"uid-1","email":"bob@example.com","idToken":"\(token)",\
          "refreshToken":"AMf-new-refresh","expiresIn":"3600"}
          """)
      default:
        return StubTransport.json(
          200, Fixture.signInBody(idToken: token, extra: #","isNewUser":true"#))
      }
    }
  }

  static func backend(_ server: StubTransport, store: any SessionStore, clock: ManualClock)
    throws -> FirebaseUserBackend
  {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: "demo-project"),
      transport: server, sessionStore: store, clock: clock)
  }

  /// The error is `misconfigured(projectID)` naming the configured project and the token's.
  static func expectMismatch(_ error: UserBackendError?, _ name: String) {
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("\(name): expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "projectID", "\(name)")
    #expect(reason.contains("\"demo-project\""), "\(name): \(reason)")
    #expect(reason.contains("\"\(other)\" (aud)"), "\(name): \(reason)")
    #expect(error?.message.contains("eyJ") == false, "\(name): no token in the message")
  }

  /// (flow, whether the answer created the account).
  static let signIns: [(ForeignTokenTests.SignIn, Bool)] = [
    (.signUp, true), (.anonymous, true), (.phone, true), (.identityProvider, true),
    (.password, false),
  ]

  @Test("a sign-in answer; an account it created is deleted again", arguments: signIns)
  func signIn(_ flow: ForeignTokenTests.SignIn, created: Bool) async throws {
    let clock = ManualClock(Fixture.start)
    let server = Self.server(clock: clock)
    let store = InMemorySessionStore()
    let backend = try Self.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      try await ForeignTokenTests.run(flow, on: backend)
    }
    Self.expectMismatch(error, "\(flow)")
    #expect(try await store.load().session == nil)
    let deletes = server.requests.filter { $0.operation == "accounts:delete" }
    if created {
      #expect(deletes.count == 1)
      #expect(deletes.first?.bodyText.contains(Self.foreignToken(clock: clock)) == true)
      #expect(error?.message.contains("was deleted again") == true, "\(String(describing: error))")
    } else {
      #expect(deletes.isEmpty, "an existing account is never deleted")
      #expect(error?.message.contains("deleted") == false)
    }
  }

  @Test func aSignUpWhoseCleanupFailsSaysTheAccountRemains() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Self.server(clock: clock, deleteStatus: 500)
    let backend = try Self.backend(server, store: InMemorySessionStore(), clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      try await backend.signUp(.email("alice@example.com", password: "password-1"))
    }
    Self.expectMismatch(error, "signUp")
    #expect(error?.message.contains("could not be deleted") == true)
    #expect(error?.message.contains("remains there") == true)
    #expect(error?.message.contains(Fixture.apiKey) == false)
  }

  @Test func aRefreshAnswerKeepsTheSession() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Self.server(clock: clock)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Self.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      try await backend.idToken(forceRefresh: true)
    }
    Self.expectMismatch(error, "refresh")
    #expect(try await store.load() == before)
    #expect(!server.requests.contains { $0.operation == "accounts:delete" })
  }

  @Test func aReauthenticationAnswerKeepsTheSession() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Self.server(clock: clock)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Self.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      try await backend.reauthenticate(.email("alice@example.com", password: "password-1"))
    }
    Self.expectMismatch(error, "reauthenticate")
    #expect(try await store.load() == before)
    #expect(!server.requests.contains { $0.operation == "accounts:delete" })
  }

  @Test("an accounts:update answer keeps the session", arguments: ForeignTokenTests.Update.allCases)
  func update(_ operation: ForeignTokenTests.Update) async throws {
    let clock = ManualClock(Fixture.start)
    let server = Self.server(clock: clock)
    var session = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    if operation == .link {
      session.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
    }
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let before = try await store.load()
    let backend = try Self.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      switch operation {
      case .password: try await backend.updatePassword("new-password-1")
      case .email: _ = try await backend.updateEmail("bob@example.com")
      case .profile: _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
      case .link:
        _ = try await backend.linkPassword(.email("bob@example.com", password: "new-password-1"))
      }
    }
    Self.expectMismatch(error, "\(operation)")
    #expect(try await store.load() == before)
    #expect(!server.requests.contains { $0.operation == "accounts:delete" })
  }

  /// `iss` naming a third project beside a matching `aud` is a token that contradicts
  /// itself: malformed, not a configuration fault.
  @Test func anIssuerOfAnotherProjectBesideTheRightAudienceIsMalformed() async throws {
    let clock = ManualClock(Fixture.start)
    let exp = Int(clock.now().timeIntervalSince1970) + 3600
    let token = JSONWebToken.unsigned(claims: [
      "sub": "uid-1", "aud": "demo-project", "iss": "https://securetoken.google.com/\(Self.other)",
      "exp": exp, "iat": exp - 3600,
    ])
    let server = StubTransport(json: Fixture.signInBody(idToken: token))
    let store = InMemorySessionStore()
    let backend = try Self.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      try await backend.signIn(.email("alice@example.com", password: "password-1"))
    }
    UnreadableIDTokenTests.expectMalformed(error, "iss")
    #expect(try await store.load().session == nil)
  }
}
