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
}
