import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Every error a backend can raise is scanned for the secrets it handled, even when the
/// server (or the transport) echoes them back.
@Suite("Firebase secrets never reach error descriptions", .timeLimit(.minutes(2)))
struct SecretLeakTests {
  static let password = "pw-Secret-4242"
  static let refreshToken = "AMf-refresh-SECRET-77"
  static let oobCode = "oob-SECRET-code-9191"

  /// A server that answers every request with an error quoting the request's URL and body.
  static func echoingServer(status: Int) -> StubTransport {
    StubTransport { request in
      let echo = (request.url.absoluteString + " " + request.bodyText)
        .replacingOccurrences(of: "\"", with: "'")
      let message = status == 200 ? "" : "INVALID_ID_TOKEN : rejected \(echo)"
      if status == 200 {
        return StubTransport.json(200, #"["\#(echo)"]"#)  // undecodable for every endpoint
      }
      return StubTransport.json(
        status,
        #"{"error":{"code":\#(status),"message":"\#(message)","status":"\#(echo)"}}"#)
    }
  }

  static func operations() -> [(String, @Sendable (FirebaseUserBackend) async throws -> Void)] {
    [
      ("signUp", { _ = try await $0.signUp(.email("a@example.com", password: password)) }),
      ("signIn", { _ = try await $0.signIn(.email("a@example.com", password: password)) }),
      ("idToken", { _ = try await $0.idToken(forceRefresh: true) }),
      ("reload", { _ = try await $0.reload() }),
      ("updatePassword", { try await $0.updatePassword(password) }),
      ("updateEmail", { _ = try await $0.updateEmail("b@example.com") }),
      ("updateProfile", { _ = try await $0.updateProfile(displayName: "B", photoURL: nil) }),
      ("sendEmailVerification", { try await $0.sendEmailVerification() }),
      ("applyEmailVerification", { try await $0.applyEmailVerification(code: oobCode) }),
      (
        "confirmPasswordReset",
        { try await $0.confirmPasswordReset(code: oobCode, newPassword: password) }
      ),
      (
        "reauthenticate",
        { _ = try await $0.reauthenticate(.email("a@example.com", password: password)) }
      ),
      ("deleteAccount", { try await $0.deleteAccount() }),
      ("anonymous", { _ = try await $0.signInAnonymously() }),
      ("phone", { _ = try await $0.startPhoneVerification(phoneNumber: "+15555550100") }),
      ("phoneCode", { _ = try await $0.signIn(verificationID: "vid-secret", code: "123456") }),
      (
        "idp",
        {
          _ = try await $0.signIn(
            with: IdentityProviderCredential(
              provider: "apple.com", idToken: "apple.jwt.secret", rawNonce: "nonce-secret"))
        }
      ),
    ]
  }

  @Test("no API key, token or password appears in any error", arguments: [400, 403, 500, 200])
  func scan(status: Int) async throws {
    let clock = ManualClock(Fixture.start)
    let session = Fixture.session(
      expiresAt: Fixture.start.addingTimeInterval(3600), refreshToken: Self.refreshToken)
    let secrets = [
      Fixture.apiKey, Self.password, Self.refreshToken, session.bearerToken, "vid-secret",
      "apple.jwt.secret", "nonce-secret", Self.oobCode,
    ]
    var checked = 0
    for (name, operation) in Self.operations() {
      let store = InMemorySessionStore(PersistedAuthState(session: session))
      let backend = try Fixture.backend(
        Self.echoingServer(status: status), store: store, clock: clock)
      do {
        try await operation(backend)
        Issue.record("\(name) should have failed")
      } catch {
        let texts = [
          "\(error)", String(reflecting: error), error.localizedDescription,
          (error as? UserBackendError)?.message ?? "",
        ]
        for (index, secret) in secrets.enumerated() {
          // Report which secret leaked, never the text (it would print the secret).
          let leaked = texts.contains { $0.contains(secret) }
          #expect(!leaked, "\(name) leaked secret #\(index)")
        }
        checked += 1
      }
    }
    #expect(checked == Self.operations().count)
  }

  @Test("sessions and configurations redact their secrets")
  func descriptions() {
    let session = Fixture.session(expiresAt: Fixture.start)
    for text in [session.description, String(reflecting: session)] {
      #expect(!text.contains(session.bearerToken))
      #expect(!text.contains(Fixture.refreshToken))
    }
    let configuration = FirebaseConfiguration(apiKey: Fixture.apiKey)
    #expect(!"\(configuration)".contains(Fixture.apiKey))
  }
}
