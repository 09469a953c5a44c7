import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Every ID token lifetime the adapter reads meets one rule
/// (``UserBackendKit/TokenLifetime``: 10 minutes to a year), and a lifetime the JSON
/// reader cannot hold is named as such, not as "not valid JSON".
@Suite("Firebase: the shortest believable ID token lifetime", .timeLimit(.minutes(1)))
struct LifetimeBoundsTests {
  static func answer(expiresIn: String) -> String {
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600))
    return Fixture.signInBody(idToken: token)
      .replacingOccurrences(of: #""expiresIn":"3600""#, with: #""expiresIn":\#(expiresIn)"#)
  }

  @Test(
    "an expiresIn under 600 s is malformedResponse; nothing stored",
    arguments: [#""0.0000001""#, #""1""#, #""300""#, #""599""#, "0.5", "599.9"])
  func tooShort(expiresIn: String) async throws {
    let backend = try Fixture.backend(StubTransport(json: Self.answer(expiresIn: expiresIn)))
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error.code.name == "malformedResponse", "\(expiresIn): \(error)")
    #expect(error.description.contains("shorter than 600 seconds"), "\(error)")
    #expect(try await backend.currentUser() == nil)
  }

  @Test("without expiresIn, an exp - iat under 600 s is refused too")
  func tooShortFromClaims() async throws {
    let token = JSONWebToken.unsigned(
      claims: ["sub": "uid-1", "iat": 1_767_225_600, "exp": 1_767_225_600.0000001])
    let body = ExpiryTests.body(idToken: token)
    let backend = try Fixture.backend(StubTransport(json: body))
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error.code.name == "malformedResponse", "\(error)")
  }

  @Test("600 s is believed")
  func shortestBelieved() async throws {
    let clock = ManualClock(Fixture.start)
    let backend = try Fixture.backend(
      StubTransport(json: Self.answer(expiresIn: #""600""#)), clock: clock)
    let session = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    #expect(session.expiresAt == Fixture.start.addingTimeInterval(600))
  }

  @Test(
    "a JSON number no double holds is named, not called invalid JSON",
    arguments: ["1e999", "-1e999"])
  func outOfRangeNumber(expiresIn: String) async throws {
    let backend = try Fixture.backend(StubTransport(json: Self.answer(expiresIn: expiresIn)))
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error.code.name == "malformedResponse", "\(error)")
    #expect(!error.description.contains("not valid JSON"), "\(error)")
    #expect(error.description.contains("out of range"), "\(error)")
  }
}
