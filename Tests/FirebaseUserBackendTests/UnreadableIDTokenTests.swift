import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Firebase ID tokens are always JWTs (the JS SDK fails on one it cannot parse). Every
/// answer that hands out tokens (sign-up, every sign-in, refresh, `accounts:update`,
/// re-authentication) must carry an ID token whose payload reads as a JSON object with
/// `sub` equal to the user and, when a project ID is configured, `aud` equal to it (a
/// token of another project is `.misconfigured`: ProjectMismatchTests);
/// otherwise it is `.malformedResponse`, nothing is stored and the old session stays.
@Suite("Firebase: an ID token the adapter cannot read is never stored", .timeLimit(.minutes(1)))
struct UnreadableIDTokenTests {
  /// ID tokens that are not a readable JWT for `uid-1` of `demo-project`.
  static func badTokens(exp: Date) -> [(String, String)] {
    let good = Fixture.idToken(exp: exp)
    let parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    let noSubject = JSONWebToken.unsigned(claims: [
      "user_id": "uid-1", "aud": "demo-project", "exp": Int(exp.timeIntervalSince1970),
      "iat": Int(exp.timeIntervalSince1970) - 3600,
    ])
    // Payloads without one reading: the first `sub` or `aud` is right (the adapter's
    // JSONDecoder read kept the first and stored the session), a later one is not, or a
    // member the adapter does not read is not JSON. The verifier refuses all of them.
    let times =
      #""exp":\#(Int(exp.timeIntervalSince1970)),"iat":\#(Int(exp.timeIntervalSince1970) - 3600)"#
    let ambiguous = { (json: String) in
      parts[0] + "." + Base64URL.encode(Data(json.utf8)) + "."
    }
    var padded = parts[1]
    while padded.count % 4 != 0 { padded += "=" }
    return [
      ("opaque", "abc"), ("three opaque segments", "a.b.c"),
      ("payload not JSON", parts[0] + "." + Base64URL.encode(Data("nope".utf8)) + "."),
      ("payload a JSON array", parts[0] + "." + Base64URL.encode(Data("[1]".utf8)) + "."),
      ("padded payload", parts[0] + "." + padded + "."),
      ("no sub", noSubject),
      (
        "sub given twice",
        ambiguous(#"{"sub":"uid-1","aud":"demo-project",\#(times),"sub":"uid-2"}"#)
      ),
      (
        "aud given twice",
        ambiguous(#"{"sub":"uid-1","aud":"demo-project",\#(times),"aud":"other-project"}"#)
      ),
      (
        "a member that is not JSON",
        ambiguous(#"{"sub":"uid-1","aud":"demo-project",\#(times),"x":"\ud800"}"#)
      ),
    ]
  }

  static func expectMalformed(_ error: UserBackendError?, _ name: String) {
    guard case .malformedResponse = error?.code else {
      Issue.record("\(name): expected malformedResponse, got \(String(describing: error))")
      return
    }
  }

  @Test("a sign-in answer", arguments: ForeignTokenTests.SignIn.allCases)
  func signIn(_ flow: ForeignTokenTests.SignIn) async throws {
    let clock = ManualClock(Fixture.start)
    for (name, token) in Self.badTokens(exp: clock.now().addingTimeInterval(3600)) {
      let server = StubTransport(
        json: Fixture.signInBody(idToken: token, extra: #","isNewUser":true"#))
      let store = InMemorySessionStore()
      let backend = try Fixture.backend(server, store: store, clock: clock)
      let error = await #expect(throws: UserBackendError.self, "\(name)") {
        try await ForeignTokenTests.run(flow, on: backend)
      }
      Self.expectMalformed(error, name)
      #expect(try await store.load().session == nil, "\(name)")
    }
  }

  @Test func aRefreshAnswer() async throws {
    let clock = ManualClock(Fixture.start)
    for (name, token) in Self.badTokens(exp: clock.now().addingTimeInterval(3600)) {
      let server = StubTransport(json: Fixture.tokenBody(idToken: token))
      let store = Fixture.signedInStore(clock: clock)
      let before = try await store.load()
      let backend = try Fixture.backend(server, store: store, clock: clock)
      let error = await #expect(throws: UserBackendError.self, "\(name)") {
        try await backend.idToken(forceRefresh: true)
      }
      Self.expectMalformed(error, name)
      #expect(try await store.load() == before, "\(name)")
    }
  }

  @Test("an accounts:update answer", arguments: ForeignTokenTests.Update.allCases)
  func update(_ operation: ForeignTokenTests.Update) async throws {
    let clock = ManualClock(Fixture.start)
    for (name, token) in Self.badTokens(exp: clock.now().addingTimeInterval(3600)) {
      let server = StubTransport(
        json: """
          {"localId":"uid-1","email":"alice@example.com","idToken":"\(token)",\
          "refreshToken":"AMf-new-refresh","expiresIn":"3600"}
          """)
      var session = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
      if operation == .link {
        session.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
      }
      let store = InMemorySessionStore(PersistedAuthState(session: session))
      let before = try await store.load()
      let backend = try Fixture.backend(server, store: store, clock: clock)
      let error = await #expect(throws: UserBackendError.self, "\(name)") {
        switch operation {
        case .password: try await backend.updatePassword("new-password-1")
        case .email: _ = try await backend.updateEmail("bob@example.com")
        case .profile: _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
        case .link:
          _ = try await backend.linkPassword(.email("bob@example.com", password: "new-password-1"))
        }
      }
      Self.expectMalformed(error, name)
      #expect(try await store.load() == before, "\(name)")
    }
  }

  @Test func aReauthenticationAnswer() async throws {
    let clock = ManualClock(Fixture.start)
    for (name, token) in Self.badTokens(exp: clock.now().addingTimeInterval(3600)) {
      let server = StubTransport(json: Fixture.signInBody(idToken: token))
      let store = Fixture.signedInStore(clock: clock)
      let before = try await store.load()
      let backend = try Fixture.backend(server, store: store, clock: clock)
      let error = await #expect(throws: UserBackendError.self, "\(name)") {
        try await backend.reauthenticate(.email("alice@example.com", password: "password-1"))
      }
      Self.expectMalformed(error, name)
      #expect(try await store.load() == before, "\(name)")
    }
  }

  /// A backend for `demo-project`.
  static func projectBackend(
    _ server: StubTransport, store: any SessionStore, clock: ManualClock
  ) throws -> FirebaseUserBackend {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: "demo-project"),
      transport: server, sessionStore: store, clock: clock)
  }

  /// (audience claim, outcome): with a project ID configured, `aud` must name it. One that
  /// is not a project ID at all is a malformed token; another project's ID is a
  /// configuration fault (ProjectMismatchTests).
  @Test(
    arguments: [
      ("demo-project", "accepted"), ("other-project", "misconfigured"), (nil, "malformed"),
      ("", "malformed"), ("demo-project ", "malformed"),
    ] as [(String?, String)])
  func theAudienceMustBeTheConfiguredProject(_ audience: String?, _ expected: String)
    async throws
  {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600), audience: audience)
    for flow in ["signIn", "refresh"] {
      let server = StubTransport(
        json: flow == "signIn"
          ? Fixture.signInBody(idToken: token) : Fixture.tokenBody(idToken: token))
      let store = flow == "signIn" ? InMemorySessionStore() : Fixture.signedInStore(clock: clock)
      let before = try await store.load()
      let backend = try Self.projectBackend(server, store: store, clock: clock)
      let result = await outcome { () async throws(UserBackendError) -> String in
        if flow == "signIn" {
          return try await backend.signIn(.email("alice@example.com", password: "password-1"))
            .bearerToken
        }
        return try await backend.idToken(forceRefresh: true)
      }
      switch expected {
      case "accepted":
        #expect((try? result.get()) == token, "\(flow)")
      case "misconfigured":
        ProjectMismatchTests.expectMismatch(result.errorCode.map { UserBackendError($0) }, flow)
        #expect(try await store.load() == before, "\(flow)")
      default:
        Self.expectMalformed(result.errorCode.map { UserBackendError($0) }, flow)
        #expect(try await store.load() == before, "\(flow)")
      }
    }
  }

  /// Without a project ID the audience is not known, so not checked.
  @Test func withoutAProjectIDTheAudienceIsNotChecked() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(
      exp: clock.now().addingTimeInterval(3600), audience: "other-project")
    let server = StubTransport(json: Fixture.signInBody(idToken: token))
    let backend = try Fixture.backend(server, clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "password-1"))
    #expect(session.bearerToken == token)
  }
}
