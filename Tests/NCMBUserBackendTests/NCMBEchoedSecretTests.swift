import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// A server (or a proxy in front of it) that quotes the request in its error message must
/// not get the request's secrets into the error: the password, the session token and the
/// keys are replaced by `<redacted>`, as the Firebase adapter does.
@Suite("NCMB errors never quote secrets a server echoed", .timeLimit(.minutes(1)))
struct NCMBEchoedSecretTests {
  static let secrets = [
    Fixture.clientKey, Fixture.applicationKey, Fixture.sessionToken, Fixture.password,
  ]

  /// What a sign-in request carries: the keys and the password.
  static let signInSecrets = [Fixture.clientKey, Fixture.applicationKey, Fixture.password]

  /// What a request without a password carries: the keys and the session token.
  static let requestSecretsWithoutPassword = [
    Fixture.clientKey, Fixture.applicationKey, Fixture.sessionToken,
  ]

  /// Every secret, raw and percent-encoded, in one text.
  static var echo: String {
    secrets.map { "\($0) \(FormURLEncoding.escape($0))" }.joined(separator: " ")
  }

  /// Checks that none of `secrets` (default: all four) is in the error's texts. (A
  /// request can only redact what it carries: see the two lists above.)
  static func expectNoSecret(
    _ error: UserBackendError, secrets: [String] = secrets,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for text in [
      error.description, String(describing: error), error.localizedDescription, error.message,
    ] {
      for secret in secrets + secrets.map(FormURLEncoding.escape) {
        #expect(
          !text.contains(secret), "a secret leaked: \(text.count) chars",
          sourceLocation: sourceLocation)
      }
    }
  }

  static func body(code: String) throws -> String {
    let object = ["code": code, "error": "echo: \(echo)"]
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  @Test(
    "an error message or code quoting the secrets is redacted, for every error kind",
    arguments: [
      "E401002", "E400001", "E400003", "E403002", "E404001", "E409001", "E500001",
      "E401001", "E429001", "E-unknown",
    ])
  func echoedInMessage(code: String) async throws {
    let json = try Self.body(code: code)
    for status in [400, 401, 403, 404, 409, 429, 500] {
      let signIn = try Fixture.backend(StubTransport([Fixture.response(status, json)]))
      let signInError = try await #require(throws: UserBackendError.self) {
        try await signIn.signIn(.username("alice", password: Fixture.password))
      }
      Self.expectNoSecret(signInError, secrets: Self.signInSecrets)
      let reload = try Fixture.backend(
        StubTransport([Fixture.response(status, json)]), store: Fixture.signedInStore())
      let reloadError = try await #require(throws: UserBackendError.self) {
        try await reload.reload()
      }
      Self.expectNoSecret(reloadError, secrets: Self.requestSecretsWithoutPassword)
    }
  }

  @Test("an error code that is itself a secret is redacted")
  func echoedInCode() async throws {
    let json = try Self.body(code: Fixture.sessionToken)
    let backend = try Fixture.backend(
      StubTransport([Fixture.response(400, json)]), store: Fixture.signedInStore())
    let error = try await #require(throws: UserBackendError.self) { try await backend.reload() }
    Self.expectNoSecret(error, secrets: Self.requestSecretsWithoutPassword)
  }
}
