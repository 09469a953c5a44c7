import Foundation
import Testing
import UserBackendKit

/// A server that hands out a token with control characters (an ESC sequence, a line break
/// that would inject a header) is answering wrongly: the engine refuses to store it, on
/// sign-in and on refresh, on every adapter (they all store through the engine).
@Suite("Session engine: tokens a server could not have issued", .timeLimit(.minutes(1)))
struct SessionTokenShapeTests {
  static func session(bearer: String, refresh: String? = "refresh-token-1") -> AuthSession {
    AuthSession(
      user: User(id: "u1", username: "ada", providers: ["password"]), bearerToken: bearer,
      refreshToken: refresh, expiresAt: nil, isNewUser: false)
  }

  static let hostile = [
    "tok\u{1B}]0;PWNED\u{07}", "tok\r\nX-Injected: yes", "tok en", "", "tok\u{7F}", "tøk",
  ]

  @Test(arguments: hostile)
  func signInRefusesABearerTokenWithControlCharacters(_ token: String) async throws {
    let store = InMemorySessionStore()
    let engine = SessionEngine(store: store)
    await #expect {
      try await engine.signIn(Self.session(bearer: token))
    } throws: { error in
      guard case .malformedResponse(let reason) = (error as? UserBackendError)?.code else {
        return false
      }
      return !token.isEmpty ? !reason.contains(token) : true
    }
    #expect(try await store.load().session == nil)
  }

  @Test(arguments: hostile.filter { !$0.isEmpty })
  func signInRefusesARefreshTokenWithControlCharacters(_ token: String) async throws {
    let engine = SessionEngine(store: InMemorySessionStore())
    await #expect(throws: UserBackendError.self) {
      try await engine.signIn(Self.session(bearer: "good-token", refresh: token))
    }
  }

  @Test func aRefreshAnsweredWithAHostileTokenKeepsTheStoredSession() async throws {
    let store = InMemorySessionStore()
    let engine = SessionEngine(store: store)
    let original = Self.session(bearer: "old-token")
    try await engine.signIn(original)
    await #expect(throws: UserBackendError.self) {
      _ = try await engine.validSession(
        forceRefresh: true, needsRefresh: { _ in true },
        exchange: { _ in .renewed(Self.session(bearer: "new\u{1B}[2J")) })
    }
    #expect(try await store.load().session == original)
  }
}
