import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A weak-password answer that quotes the request (`WEAK_PASSWORD : pw=… key=…`) must not
/// get the password or the API key into the error's password requirements: the rules the
/// server listed are shown to people (`baas` prints them as a hint), and the rules this
/// version cannot classify are kept word for word.
@Suite("Weak-password answers never carry an echoed secret", .timeLimit(.minutes(1)))
struct WeakPasswordEchoTests {
  static let password = "correct-horse-7"
  static let oobCode = "oob-SECRET-code-9191"

  /// The texts of `error` a program may print, the requirements included.
  static func texts(_ error: UserBackendError) -> [String] {
    var texts = [error.description, error.message, String(reflecting: error)]
    if let requirements = error.passwordRequirements {
      texts.append(requirements.summary)
      texts += requirements.unrecognized
      texts.append(String(reflecting: requirements))
    }
    return texts
  }

  /// The server's weak-password wordings, quoting the request (named, so that a failure
  /// never prints a secret).
  static let details = [
    "weak": "WEAK_PASSWORD : pw=\(password) key=\(Fixture.apiKey)",
    "weak, encoded": "WEAK_PASSWORD : Password should be at least 6 characters (\(password), "
      + "\(FormURLEncoding.escape(Fixture.apiKey)))",
    "requirements list": "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: "
      + "[Password must contain at least 12 characters, pw=\(password), key=\(Fixture.apiKey)]",
  ]

  @Test(
    "the requirements of signUp, updatePassword and confirmPasswordReset",
    arguments: ["weak", "weak, encoded", "requirements list"])
  func echoed(wording: String) async throws {
    let detail = try #require(Self.details[wording])
    let operations: [@Sendable (FirebaseUserBackend) async throws -> Void] = [
      { _ = try await $0.signUp(.email("a@example.com", password: Self.password)) },
      { try await $0.updatePassword(Self.password) },
      { try await $0.confirmPasswordReset(code: Self.oobCode, newPassword: Self.password) },
    ]
    let body = #"{"error":{"code":400,"message":"\#(detail)","status":"INVALID_ARGUMENT"}}"#
    for (index, operation) in operations.enumerated() {
      let session = Fixture.session(expiresAt: Fixture.start.addingTimeInterval(3600))
      let backend = try Fixture.backend(
        StubTransport { _ in StubTransport.json(400, body) },
        store: InMemorySessionStore(PersistedAuthState(session: session)))
      let error = try await #require(throws: UserBackendError.self) { try await operation(backend) }
      #expect(error.passwordRequirements != nil, "operation #\(index): no requirements")
      for (secretIndex, secret) in [Self.password, Fixture.apiKey, Self.oobCode].enumerated() {
        // Report which secret leaked, never the text (it would print the secret).
        let leaked = Self.texts(error).contains {
          $0.contains(secret) || $0.contains(FormURLEncoding.escape(secret))
        }
        #expect(!leaked, "operation #\(index) leaked secret #\(secretIndex)")
      }
    }
  }
}
