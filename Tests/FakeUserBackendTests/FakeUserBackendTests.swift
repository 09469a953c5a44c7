@testable import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// A backend, its store, session store and clock.
struct Fixture {
  let clock = ManualClock()
  let store: UserStore
  let sessions = InMemorySessionStore()
  let backend: FakeUserBackend

  init(idTokenLifetime: TimeInterval = 3600) throws {
    store = try makeStore(clock: clock)
    backend = try FakeUserBackend(
      store: store, sessionStore: sessions, idTokenLifetime: idTokenLifetime)
  }

  /// A second backend on the same stores: an app restart.
  func restarted() -> FakeUserBackend {
    FakeUserBackend(store: store, sessionStore: sessions)
  }
}

/// An in-memory session store whose calls suspend a few times, like disk I/O, so that
/// concurrent callers interleave between reading and writing the session.
struct SlowSessionStore: SessionStore {
  let inner = InMemorySessionStore()
  func load() async throws -> PersistedAuthState {
    for _ in 0..<5 { await Task.yield() }
    return try await inner.load()
  }
  func save(_ state: PersistedAuthState) async throws {
    for _ in 0..<5 { await Task.yield() }
    try await inner.save(state)
  }
  func clear() async throws { try await inner.clear() }
}

/// The portable error thrown by `body`, or `nil` when it succeeded or threw another type.
func backendError(_ body: () async throws -> some Any) async -> UserBackendError? {
  do {
    _ = try await body()
    return nil
  } catch let error as UserBackendError {
    return error
  } catch {
    return nil
  }
}

@Suite(.timeLimit(.minutes(2))) struct FakeUserBackendTests {
  @Test func signUpSignsInANewUser() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email(" Ann@Example.com", password: "secret1"))
    #expect(session.isNewUser)
    #expect(session.user.email == "ann@example.com")
    #expect(session.user.providers == ["password"])
    #expect(try await fixture.backend.currentUser() == session.user)
    let token = try JSONWebToken(parsing: session.bearerToken)
    #expect(token.stringClaim("sub") == session.user.id)
    #expect(token.numericClaim("iat") == fixture.clock.now().timeIntervalSince1970)
    #expect(token.expiresAt == fixture.clock.now().addingTimeInterval(3600))
    #expect(token.stringClaim("jti")?.isEmpty == false)
    #expect(session.expiresAt == token.expiresAt)
  }

  @Test func signUpAndSignInWithAUsername() async throws {
    let fixture = try Fixture()
    let created = try await fixture.backend.signUp(.username("ann", password: "secret1"))
    try await fixture.backend.signOut()
    let session = try await fixture.backend.signIn(.username(" ann ", password: "secret1"))
    #expect(session.user.id == created.user.id)
    #expect(session.user.username == "ann")
    #expect(!session.isNewUser)
  }

  @Test func duplicateSignUpIsRefusedCaseAndSpaceInsensitively() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let error = await backendError {
      try await fixture.backend.signUp(.email("  ANN@example.COM ", password: "secret2"))
    }
    #expect(error?.code == .accountAlreadyExists)
    #expect(error?.backendCode == "EMAIL_EXISTS")
    #expect(try fixture.store.userCount() == 1)
  }

  @Test func duplicateSignUpIsRefusedAcrossUnicodeNormalisationForms() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("caf\u{E9}@example.com", password: "secret1"))
    let error = await backendError {
      try await fixture.backend.signUp(.email("cafe\u{301}@example.com", password: "secret2"))
    }
    #expect(error?.code == .accountAlreadyExists)
    #expect(try fixture.store.userCount() == 1)
    let session = try await fixture.backend.signIn(
      .email("CAFE\u{301}@example.com", password: "secret1"))
    #expect(Array(session.user.email?.utf8 ?? "".utf8) == Array("caf\u{E9}@example.com".utf8))
  }

  @Test(arguments: [
    (
      PasswordCredential.email("", password: "secret1"),
      UserBackendError.Code.invalidInput(
        field: "email", reason: "must not be empty")
    ),
    (
      .email("a@example.com", password: ""),
      .invalidInput(field: "password", reason: "must not be empty")
    ),
    (.email("not-an-email", password: "secret1"), .invalidEmail),
    (.email("a@example.com", password: "12345"), .weakPassword(minimumLength: 6)),
    (
      .username("  ", password: "secret1"),
      .invalidInput(field: "username", reason: "must not be empty")
    ),
  ])
  func signUpRejectsBadInput(credential: PasswordCredential, expected: UserBackendError.Code)
    async throws
  {
    let fixture = try Fixture()
    let error = await backendError { try await fixture.backend.signUp(credential) }
    #expect(error?.code == expected)
    #expect(try fixture.store.userCount() == 0)
  }

  @Test func unknownAccountAndWrongPasswordLookTheSame() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    try await fixture.backend.signOut()
    let wrong = await backendError {
      try await fixture.backend.signIn(.email("ann@example.com", password: "secret2"))
    }
    let unknown = await backendError {
      try await fixture.backend.signIn(.email("bob@example.com", password: "secret1"))
    }
    #expect(wrong?.code == .invalidCredentials)
    #expect(wrong == unknown)
    #expect(wrong?.backendCode == "INVALID_LOGIN_CREDENTIALS")
    #expect(wrong.map { "\($0)".contains("secret") } == false)
    #expect(try await fixture.backend.currentUser() == nil)
  }

  @Test func disabledAccountCannotSignIn() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    try fixture.store.setDisabled(userID: session.user.id, true)
    let error = await backendError {
      try await fixture.backend.signIn(.email("ann@example.com", password: "secret1"))
    }
    #expect(error?.code == .userDisabled)
  }

  @Test func signOutIsLocalAndIdempotent() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    try await fixture.backend.signOut()
    try await fixture.backend.signOut()
    #expect(try await fixture.backend.currentUser() == nil)
    #expect(try await fixture.sessions.load() == .empty)
    let error = await backendError { try await fixture.backend.idToken(forceRefresh: false) }
    #expect(error?.code == .notSignedIn)
  }

  @Test func currentUserSurvivesARestart() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    #expect(try await fixture.restarted().currentUser() == session.user)
  }

  @Test func unexpiredTokenIsReturnedWithoutRefresh() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    fixture.clock.advance(by: 3599)
    #expect(try await fixture.backend.idToken(forceRefresh: false) == session.bearerToken)
    #expect(try fixture.store.refreshTokenRotationCount(userID: session.user.id) == 0)
  }

  @Test func expiredTokenIsRefreshedAndTheRefreshTokenRotates() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    fixture.clock.advance(by: 3600)
    let token = try await fixture.backend.idToken(forceRefresh: false)
    #expect(token != session.bearerToken)
    let parsed = try JSONWebToken(parsing: token)
    #expect(parsed.expiresAt == fixture.clock.now().addingTimeInterval(3600))
    let stored = try #require(try await fixture.sessions.load().session)
    #expect(stored.refreshToken != session.refreshToken)
    #expect(try fixture.store.refreshTokenRotationCount(userID: session.user.id) == 1)
    // Once the new refresh token has been used, the old one is a reuse.
    _ = try await fixture.backend.idToken(forceRefresh: true)
    let oldRefreshToken = try #require(session.refreshToken)
    #expect(throws: UserStoreError.invalidRefreshToken) {
      try fixture.store.rotateRefreshToken(oldRefreshToken)
    }
  }

  /// The process is killed (or its session write fails) after the store rotated the
  /// refresh token and before the session was saved: the session keeps the old token.
  /// Its next refresh is a retry, not a reuse: the user stays signed in. Before, the
  /// family was revoked and the user signed out for good.
  @Test func aRefreshWhoseAnswerWasNeverSavedCanBeRetried() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let before = try await fixture.sessions.load()
    _ = try await fixture.backend.idToken(forceRefresh: true)
    let lost = try #require(try await fixture.sessions.load().session?.refreshToken)
    try await fixture.sessions.save(before)
    let restarted = FakeUserBackend(store: fixture.store, sessionStore: fixture.sessions)
    let token = try await restarted.idToken(forceRefresh: true)
    #expect(try JSONWebToken(parsing: token).stringClaim("sub") == before.session?.user.id)
    #expect(try await restarted.currentUser() != nil)
    #expect(throws: UserStoreError.invalidRefreshToken) {
      try fixture.store.rotateRefreshToken(lost)
    }
  }

  @Test func concurrentCallersShareOneRefresh() async throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let backend = FakeUserBackend(store: store, sessionStore: SlowSessionStore())
    let session = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    clock.advance(by: 4000)
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<20 { group.addTask { try await backend.idToken(forceRefresh: false) } }
      var tokens: Set<String> = []
      for try await token in group { tokens.insert(token) }
      return tokens
    }
    #expect(tokens.count == 1)
    #expect(try store.refreshTokenRotationCount(userID: session.user.id) == 1)
    #expect(try await backend.currentUser() != nil)
  }

  @Test func forcedRefreshIssuesANewToken() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let token = try await fixture.backend.idToken(forceRefresh: true)
    #expect(token != session.bearerToken)
    #expect(try fixture.store.refreshTokenRotationCount(userID: session.user.id) == 1)
  }

  @Test(arguments: ["revoked", "disabled", "deleted"])
  func definitiveRejectionClearsTheSession(cause: String) async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    switch cause {
    case "revoked": try fixture.store.revokeRefreshTokens(userID: session.user.id)
    case "disabled": try fixture.store.setDisabled(userID: session.user.id, true)
    default: _ = try fixture.store.deleteUser(id: session.user.id)
    }
    let error = await backendError { try await fixture.backend.idToken(forceRefresh: true) }
    #expect(error?.code == .sessionExpired)
    #expect(try await fixture.backend.currentUser() == nil)
  }

  @Test func refreshUsesTheStoreClockLifetime() async throws {
    let fixture = try Fixture(idTokenLifetime: 600)
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    #expect(session.expiresAt == fixture.clock.now().addingTimeInterval(600))
    fixture.clock.advance(by: 601)
    #expect(try await fixture.backend.idToken(forceRefresh: false) != session.bearerToken)
  }

  @Test func reusedRefreshTokenRevokesBothCopiesOfTheSession() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    // A copy of the stored session, as a thief (or a restored backup) would hold it.
    let copy = InMemorySessionStore(try await fixture.sessions.load())
    let other = FakeUserBackend(store: fixture.store, sessionStore: copy)
    _ = try await fixture.backend.idToken(forceRefresh: true)
    // The copy's refresh cannot be told from a retry of a lost answer: it is answered, and
    // the original's token revoked. The original's next refresh presents that revoked token,
    // which revokes the family: both copies end signed out.
    _ = try await other.idToken(forceRefresh: true)
    let original = await backendError { try await fixture.backend.idToken(forceRefresh: true) }
    #expect(original?.code == .sessionExpired)
    #expect(try await fixture.backend.currentUser() == nil)
    let reuse = await backendError { try await other.idToken(forceRefresh: true) }
    #expect(reuse?.code == .sessionExpired)
    #expect(try await copy.load().session == nil)
  }

  /// Once the original has refreshed twice, the copy's token is a reuse at once.
  @Test func aCopyPresentedAfterTheOriginalMovedOnRevokesBothAtOnce() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let copy = InMemorySessionStore(try await fixture.sessions.load())
    let other = FakeUserBackend(store: fixture.store, sessionStore: copy)
    _ = try await fixture.backend.idToken(forceRefresh: true)
    _ = try await fixture.backend.idToken(forceRefresh: true)
    let reuse = await backendError { try await other.idToken(forceRefresh: true) }
    #expect(reuse?.code == .sessionExpired)
    let original = await backendError { try await fixture.backend.idToken(forceRefresh: true) }
    #expect(original?.code == .sessionExpired)
  }

  @Test func aServerFailureDuringRefreshKeepsTheSession() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    // Break the token table: the store now fails with a database error, not a rejection.
    try fixture.store.locked { db in try db.execute(script: "DROP TABLE refresh_tokens") }
    let error = await backendError { try await fixture.backend.idToken(forceRefresh: true) }
    #expect(error?.code.name == "server")
    #expect(error?.backendCode == "DATABASE_ERROR")
    #expect(try await fixture.backend.currentUser() == session.user)
    #expect(try await fixture.sessions.load().session == session)
  }
}
