import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Server-sent tokens over 16 KiB and identifiers over their limits are `.malformedResponse`
/// naming the field, on every path that stores tokens or a user; the stored session stays
/// as it was. (Profile fields over the limits are dropped instead: ProfileAnswerLimitTests.)
@Suite("Firebase: over-long answer values are never stored", .timeLimit(.minutes(1)))
struct AnswerLimitTests {
  static let longToken = String(repeating: "r", count: AnswerLimits.maximumTokenBytes + 1)

  /// An ID token for uid-1 whose extra claim makes it longer than 16 KiB.
  static func bigIDToken(clock: ManualClock) -> String {
    let exp = Int(clock.now().timeIntervalSince1970) + 3600
    return JSONWebToken.unsigned(claims: [
      "sub": "uid-1", "user_id": "uid-1", "exp": exp, "iat": exp - 3600,
      "pad": String(repeating: "p", count: AnswerLimits.maximumTokenBytes),
    ])
  }

  /// What is over the limit in an answer.
  enum Oversize: String, CaseIterable, CustomTestStringConvertible {
    case refreshToken, idToken
    var testDescription: String { rawValue }
    /// The name the error must carry.
    var field: String {
      switch self {
      case .refreshToken: "refresh token"
      case .idToken: "bearer token"
      }
    }
  }

  static func expectMalformed(_ error: (any Error)?, naming field: String) {
    guard let error = error as? UserBackendError, case .malformedResponse(let reason) = error.code
    else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(reason.contains(field), "\(reason)")
    #expect(!reason.contains(String(repeating: "r", count: 64)), "the value is quoted")
  }

  /// A sign-in answer (`accounts:*` shape) with `oversize`.
  static func signInBody(_ oversize: Oversize, clock: ManualClock) -> String {
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    return switch oversize {
    case .refreshToken: Fixture.signInBody(idToken: token, refreshToken: longToken)
    case .idToken: Fixture.signInBody(idToken: bigIDToken(clock: clock))
    }
  }

  @Test(
    "a sign-in answer with an over-long value stores nothing",
    arguments: ForeignTokenTests.SignIn.allCases, Oversize.allCases)
  func signIn(_ flow: ForeignTokenTests.SignIn, oversize: Oversize) async throws {
    let clock = ManualClock(Fixture.start)
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(
      StubTransport(json: Self.signInBody(oversize, clock: clock)), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) {
      try await ForeignTokenTests.run(flow, on: backend)
    }
    Self.expectMalformed(error, naming: oversize.field)
    #expect(try await store.load().session == nil)
  }

  @Test(
    "a reauthentication answer with an over-long value keeps the stored session",
    arguments: Oversize.allCases)
  func reauthenticate(_ oversize: Oversize) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Fixture.backend(
      StubTransport(json: Self.signInBody(oversize, clock: clock)), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) {
      _ = try await backend.reauthenticate(.email("alice@example.com", password: "password-1"))
    }
    Self.expectMalformed(error, naming: oversize.field)
    #expect(try await store.load() == before)
  }

  @Test(
    "a token refresh answer with an over-long token keeps the stored session",
    arguments: [Oversize.refreshToken, .idToken])
  func refresh(_ oversize: Oversize) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    let body =
      oversize == .refreshToken
      ? Fixture.tokenBody(idToken: token, refreshToken: Self.longToken)
      : Fixture.tokenBody(idToken: Self.bigIDToken(clock: clock))
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) {
      _ = try await backend.idToken(forceRefresh: true)
    }
    Self.expectMalformed(error, naming: oversize.field)
    #expect(try await store.load() == before)
  }

  /// An `accounts:update` answer with `oversize`.
  static func updateBody(_ oversize: Oversize, clock: ManualClock) -> String {
    let token = Fixture.idToken(exp: clock.now().addingTimeInterval(3600))
    let (idToken, refresh, name) =
      switch oversize {
      case .refreshToken: (token, longToken, "Alice")
      case .idToken: (bigIDToken(clock: clock), Fixture.refreshToken, "Alice")
      }
    return """
      {"localId":"uid-1","email":"alice@example.com","displayName":"\(name)",\
      "providerUserInfo":[{"providerId":"password"}],"idToken":"\(idToken)",\
      "refreshToken":"\(refresh)","expiresIn":"3600"}
      """
  }

  @Test(
    "a profile update answer with an over-long value keeps the stored session",
    arguments: Oversize.allCases)
  func updateProfile(_ oversize: Oversize) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let backend = try Fixture.backend(
      StubTransport(json: Self.updateBody(oversize, clock: clock)), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) {
      _ = try await backend.updateProfile(displayName: "Alice", photoURL: nil)
    }
    Self.expectMalformed(error, naming: oversize.field)
    #expect(try await store.load() == before)
  }

  @Test(
    "linking a password: an answer with an over-long value keeps the guest session",
    arguments: Oversize.allCases)
  func linkPassword(_ oversize: Oversize) async throws {
    let clock = ManualClock(Fixture.start)
    var guest = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    guest.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
    let store = InMemorySessionStore(PersistedAuthState(session: guest))
    let backend = try Fixture.backend(
      StubTransport(json: Self.updateBody(oversize, clock: clock)), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) {
      _ = try await backend.linkPassword(.email("alice@example.com", password: "password-1"))
    }
    Self.expectMalformed(error, naming: oversize.field)
    #expect(try await store.load().session == guest)
  }

  @Test(
    "a reload answer with an over-long identifier keeps the stored user",
    arguments: [
      ("email", #""email":"\#(String(repeating: "e", count: 250))@x.io""#),
      ("phoneNumber", #""phoneNumber":"+12345678901234567""#),
    ])
  func reload(_ field: String, member: String) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let before = try await store.load()
    let body = #"{"users":[{"localId":"uid-1",\#(member)}]}"#
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    let error = await #expect(throws: (any Error).self) { _ = try await backend.reload() }
    Self.expectMalformed(error, naming: field)
    #expect(try await store.load() == before)
  }
}
