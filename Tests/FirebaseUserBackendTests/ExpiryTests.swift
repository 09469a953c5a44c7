import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase ID-token expiry is on the device clock", .timeLimit(.minutes(1)))
struct ExpiryTests {
  /// A sign-in answer without `expiresIn`.
  static func body(idToken: String) -> String {
    """
    {"localId":"uid-1","email":"alice@example.com","idToken":"\(idToken)",\
    "refreshToken":"\(Fixture.refreshToken)"}
    """
  }

  @Test("without expiresIn, the lifetime is the token's exp - iat from the device's now")
  func lifetimeFromClaims() async throws {
    let clock = ManualClock(Fixture.start)
    // The server's clock is an hour ahead: exp is two hours after the device's now.
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(7200))
    let server = StubTransport(json: Self.body(idToken: token))
    let backend = try Fixture.backend(server, clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    #expect(session.expiresAt == Fixture.start.addingTimeInterval(3600))
  }

  @Test("no expiresIn and no iat/exp, or a lifetime that is not positive, is malformed")
  func noLifetime() async throws {
    let noTimes = JSONWebToken.unsigned(claims: ["sub": "uid-1"])
    let negative = StubTransport.json(
      200, Fixture.signInBody(idToken: noTimes).replacingOccurrences(of: "\"3600\"", with: "-5"))
    for answer in [StubTransport.json(200, Self.body(idToken: noTimes)), negative] {
      let backend = try Fixture.backend(StubTransport { _ in answer })
      let error = try await #require(throws: UserBackendError.self) {
        try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
      }
      #expect(error.code.name == "malformedResponse", "\(error)")
      #expect(try await backend.currentUser() == nil)
    }
  }

  /// `expiresIn` values that are no token lifetime, as sign-in, sign-up and refresh
  /// answers send them: spellings `Double(_:)` once read as numbers, and lifetimes over a
  /// year.
  static let unbelievableExpiresIn = [
    #""0x10""#, #""1e308""#, #""+3600""#, #""inf""#, #""0x1p4""#, #""31536001""#, "1e300",
    "31536000.5",
  ]

  @Test(
    "sign-in, sign-up and refresh refuse an expiresIn that is no lifetime; nothing stored",
    arguments: unbelievableExpiresIn)
  func unbelievableLifetime(expiresIn: String) async throws {
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600))
    let answer = Fixture.signInBody(idToken: token)
      .replacingOccurrences(of: #""expiresIn":"3600""#, with: #""expiresIn":\#(expiresIn)"#)
    for signUp in [false, true] {
      let backend = try Fixture.backend(StubTransport(json: answer))
      let credential = PasswordCredential.email("alice@example.com", password: "s3cret-pw")
      let error = try await #require(throws: UserBackendError.self) {
        _ = signUp ? try await backend.signUp(credential) : try await backend.signIn(credential)
      }
      #expect(error.code.name == "malformedResponse", "\(expiresIn): \(error)")
      #expect(try await backend.currentUser() == nil)
    }

    let clock = ManualClock(Fixture.start)
    let expired = Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-60))
    let store = InMemorySessionStore(PersistedAuthState(session: expired))
    let refresh = Fixture.tokenBody(idToken: token)
      .replacingOccurrences(of: #""expires_in":"3600""#, with: #""expires_in":\#(expiresIn)"#)
    let backend = try Fixture.backend(StubTransport(json: refresh), store: store, clock: clock)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.idToken()
    }
    #expect(error.code.name == "malformedResponse", "\(expiresIn): \(error)")
    // The stored session is left as it was: a bad answer is not a rejection.
    #expect(try await store.load().session == expired)
  }

  @Test(
    "without expiresIn, an exp - iat over a year is refused (exp 1e300 included)",
    arguments: [1e300, 1_767_225_600 + 31_536_001, Double.greatestFiniteMagnitude] as [Double])
  func unbelievableClaimsLifetime(exp: Double) async throws {
    let token = JSONWebToken.unsigned(claims: ["sub": "uid-1", "iat": 1_767_225_600, "exp": exp])
    let backend = try Fixture.backend(StubTransport(json: Self.body(idToken: token)))
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error.code.name == "malformedResponse", "\(exp): \(error)")
    #expect(try await backend.currentUser() == nil)
  }

  @Test("a lifetime of exactly a year is believed")
  func aYearIsBelieved() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600))
    let answer = Fixture.signInBody(idToken: token)
      .replacingOccurrences(of: #""expiresIn":"3600""#, with: #""expiresIn":"31536000""#)
    let backend = try Fixture.backend(StubTransport(json: answer), clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    #expect(session.expiresAt == Fixture.start.addingTimeInterval(31_536_000))
  }
}
