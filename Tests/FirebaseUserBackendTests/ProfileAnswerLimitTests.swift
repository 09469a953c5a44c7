import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A display name or photo URL from the server over the client's input limit (another
/// client may have stored it) is dropped (`nil`) on every path that reads the server's
/// profile; the sign-in, reload or update still succeeds and its session is stored.
@Suite("Firebase: over-long profile fields are dropped, never the answer", .timeLimit(.minutes(1)))
struct ProfileAnswerLimitTests {
  static let longName = String(
    repeating: "n", count: CredentialValidation.maximumDisplayNameLength + 1)
  static let longPhoto =
    "https://example.com/"
    + String(repeating: "p", count: CredentialValidation.maximumPhotoURLLength)

  /// The sign-in flows whose answers carry a display name.
  static let flows: [ForeignTokenTests.SignIn] = [
    .signUp, .password, .anonymous, .identityProvider,
  ]

  @Test("a sign-in answer's over-long displayName is dropped", arguments: flows)
  func signIn(_ flow: ForeignTokenTests.SignIn) async throws {
    let clock = ManualClock(Fixture.start)
    let store = InMemorySessionStore()
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    let body = Fixture.signInBody(idToken: token).replacingOccurrences(
      of: #""displayName":"""#, with: #""displayName":"\#(Self.longName)""#)
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    try await ForeignTokenTests.run(flow, on: backend)
    let stored = try #require(try await store.load().session)
    #expect(stored.user.displayName == nil)
    #expect(stored.user.id == "uid-1")
  }

  @Test("an ID token's over-long name claim is dropped")
  func nameClaim() async throws {
    let clock = ManualClock(Fixture.start)
    let exp = Int(clock.now().timeIntervalSince1970) + 3600
    let token = JSONWebToken.unsigned(claims: [
      "sub": "uid-1", "user_id": "uid-1", "exp": exp, "iat": exp - 3600, "name": Self.longName,
    ])
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(
      StubTransport(json: Fixture.signInBody(idToken: token)), store: store, clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "password-1"))
    #expect(session.user.displayName == nil)
    #expect(try await store.load().session?.user.displayName == nil)
  }

  @Test("a reload answer's over-long displayName and photoUrl are dropped")
  func reload() async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let body = """
      {"users":[{"localId":"uid-1","email":"alice@example.com","emailVerified":true,\
      "displayName":"\(Self.longName)","photoUrl":"\(Self.longPhoto)"}]}
      """
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    let user = try await backend.reload()
    #expect(user.displayName == nil)
    #expect(user.photoURL == nil)
    #expect(user.emailVerified == true)
    #expect(try await store.load().session?.user == user)
  }

  @Test("a reauthentication answer's over-long displayName is dropped")
  func reauthenticate() async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    let body = Fixture.signInBody(idToken: token, refreshToken: "AMf-refresh-token-0009")
      .replacingOccurrences(of: #""displayName":"""#, with: #""displayName":"\#(Self.longName)""#)
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    let session = try await backend.reauthenticate(
      .email("alice@example.com", password: "password-1"))
    #expect(session.user.displayName == nil)
    #expect(try await store.load().session?.refreshToken == "AMf-refresh-token-0009")
  }

  /// An `accounts:update` answer with an over-long display name and photo URL.
  static func updateBody(clock: ManualClock) -> String {
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    return """
      {"localId":"uid-1","email":"alice@example.com","displayName":"\(longName)",\
      "photoUrl":"\(longPhoto)","providerUserInfo":[{"providerId":"password"}],\
      "idToken":"\(token)","refreshToken":"AMf-refresh-token-0009","expiresIn":"3600"}
      """
  }

  @Test("a profile update answer's over-long fields are dropped; its tokens are stored")
  func updateProfile() async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(
      StubTransport(json: Self.updateBody(clock: clock)), store: store, clock: clock)
    let user = try await backend.updateProfile(
      displayName: "Alice", photoURL: "https://example.com/a.png")
    #expect(user.displayName == nil)
    #expect(user.photoURL == nil)
    #expect(try await store.load().session?.refreshToken == "AMf-refresh-token-0009")
  }

  @Test("linking a password: the answer's over-long fields are dropped")
  func linkPassword() async throws {
    let clock = ManualClock(Fixture.start)
    var guest = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    guest.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
    let store = InMemorySessionStore(PersistedAuthState(session: guest))
    let backend = try Fixture.backend(
      StubTransport(json: Self.updateBody(clock: clock)), store: store, clock: clock)
    let session = try await backend.linkPassword(
      .email("alice@example.com", password: "password-1"))
    #expect(session.user.displayName == nil)
    #expect(session.user.isAnonymous == false)
    #expect(try await store.load().session?.user == session.user)
  }

  @Test("a stored session holding an over-long profile still refreshes")
  func storedSession() async throws {
    let clock = ManualClock(Fixture.start)
    var session = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    session.user.displayName = Self.longName
    session.user.photoURL = URL(string: Self.longPhoto)
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let backend = try Fixture.backend(Fixture.server(clock: clock), store: store, clock: clock)
    _ = try await backend.idToken(forceRefresh: true)
    // The refreshed session was stored (the stub's token may equal the old one): the
    // profile it keeps is the one the client can use.
    let stored = try #require(try await store.load().session)
    #expect(stored.user.displayName == nil)
    #expect(stored.user.photoURL == nil)
  }
}
