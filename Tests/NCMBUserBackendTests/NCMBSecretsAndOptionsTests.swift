import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite("NCMB secrets and options", .timeLimit(.minutes(2)))
struct NCMBSecretsAndOptionsTests {
  static let secrets = [
    Fixture.clientKey, Fixture.applicationKey, Fixture.sessionToken, Fixture.password,
  ]

  static func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in secrets {
      #expect(
        !text.contains(secret), "a secret leaked: \(text.count) chars",
        sourceLocation: sourceLocation)
    }
  }

  @Test(
    "no key, password or session token in any error description",
    arguments: [
      Fixture.response(
        401, #"{"code":"E401002","error":"Authentication error with ID/PASS incorrect."}"#),
      Fixture.response(
        403, #"{"code":"E403002","error":"Unauthorized operations for signature."}"#),
      Fixture.response(
        401, #"{"code":"E401001","error":"Authentication error by header incorrect."}"#),
      Fixture.response(500, "<html>\(Fixture.sessionToken)</html>"),
      Fixture.response(200, #"{"objectId":7,"sessionToken":"\#(Fixture.sessionToken)"}"#),
      Fixture.response(200, #"{"objectId":"x","sessionToken":"\#(Fixture.sessionToken)"#),
      .failure(.connectionFailed(reason: "offline")),
      .failure(.timedOut),
    ])
  func errorsCarryNoSecrets(_ outcome: StubTransport.Outcome) async throws {
    for legacy in [false, true] {
      let backend = try Fixture.backend(
        StubTransport([outcome, outcome]), store: Fixture.signedInStore(),
        configuration: Fixture.configuration(legacyGETLogin: legacy))
      let fetchError = try await #require(throws: UserBackendError.self) {
        try await backend.reload()
      }
      Self.expectNoSecret(fetchError.description)
      Self.expectNoSecret(String(describing: fetchError))
      let signInError = try await #require(throws: UserBackendError.self) {
        try await backend.signIn(.username("alice", password: Fixture.password))
      }
      Self.expectNoSecret(signInError.description)
      Self.expectNoSecret(signInError.localizedDescription)
    }
  }

  @Test("configuration and session descriptions redact keys and tokens")
  func descriptions() async throws {
    let configuration = Fixture.configuration()
    Self.expectNoSecret(configuration.description)
    Self.expectNoSecret(String(reflecting: configuration))
    let backend = try Fixture.backend(
      StubTransport([Fixture.response(200, Fixture.loginJSON)]))
    let session = try await backend.signIn(.username("alice", password: Fixture.password))
    Self.expectNoSecret(session.description)
    Self.expectNoSecret(String(describing: session))
  }

  @Test(
    "bad configurations are rejected at construction",
    arguments: [
      ("applicationKey", NCMBConfiguration(applicationKey: " ", clientKey: "k")),
      ("clientKey", NCMBConfiguration(applicationKey: "a", clientKey: "")),
      (
        "baseURL",
        NCMBConfiguration(applicationKey: "a", clientKey: "k", baseURL: URL(string: "ftp://h")!)
      ),
      (
        "baseURL",
        NCMBConfiguration(applicationKey: "a", clientKey: "k", baseURL: URL(string: "file:///tmp")!)
      ),
      (
        "baseURL",
        NCMBConfiguration(
          applicationKey: "a", clientKey: "k", baseURL: URL(string: "https://h/?x=1")!)
      ),
    ])
  func badConfiguration(_ setting: String, _ configuration: NCMBConfiguration) throws {
    let error = try #require(throws: UserBackendError.self) {
      try NCMBUserBackend(
        configuration: configuration, transport: StubTransport(),
        sessionStore: InMemorySessionStore())
    }
    guard case .misconfigured(let named, _) = error.code else {
      Issue.record("expected misconfigured, got \(error)")
      return
    }
    #expect(named == setting)
  }

  @Test("the backend's identity and capabilities")
  func identity() throws {
    let backend = try Fixture.backend(StubTransport())
    #expect(backend.backendID == "ncmb")
    #expect(
      backend.capabilities == [
        .emailPassword, .usernamePassword, .anonymousSignIn, .identityProviderSignIn,
        .passwordReset, .accountDeletion, .authStateChanges, .userReload, .profileUpdate,
        .passwordUpdate, .emailUpdate, .reauthentication, .anonymousUpgrade, .userDocuments,
        .signOutRevokesSession,
      ])
    // The service has no API to apply a verification code or finish a reset.
    #expect(!backend.capabilities.contains(.emailVerification))
    #expect(!backend.capabilities.contains(.passwordResetCompletion))
    #expect(!backend.capabilities.contains(.phoneNumberSignIn))
    #expect(!backend.capabilities.contains(.tokenRefresh))
    #expect(NCMBConfiguration.defaultBaseURL.absoluteString == "https://mbaas.api.nifcloud.com")
  }

  /// A transport that answers login with a response signed by `signingKey` (or unsigned).
  struct SigningTransport: HTTPTransport {
    var signingKey: String?
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let body = Data(Fixture.loginJSON.utf8)
      var response = HTTPResponse(status: 200, body: body)
      if let signingKey {
        response.headerFields["X-NCMB-Response-Signature"] = NCMBSignature.responseSignature(
          request: request, responseBody: body, applicationKey: Fixture.applicationKey,
          clientKey: signingKey, timestamp: request.headerFields["X-NCMB-Timestamp"] ?? "")
      }
      return response
    }
  }

  @Test(
    "response signatures are checked only when enabled and sent",
    arguments: [
      (true, Fixture.clientKey, true), (true, "another-key", false), (true, nil, true),
      (false, "another-key", true),
    ] as [(Bool, String?, Bool)])
  func responseSignature(_ enabled: Bool, _ signingKey: String?, _ accepted: Bool) async throws {
    let store = InMemorySessionStore()
    let backend = try NCMBUserBackend(
      configuration: Fixture.configuration(validatesResponseSignature: enabled),
      transport: SigningTransport(signingKey: signingKey), sessionStore: store,
      clock: ManualClock(Fixture.now))
    if accepted {
      _ = try await backend.signIn(.username("alice", password: "secret1"))
      #expect(try await store.load().session != nil)
    } else {
      let error = try await #require(throws: UserBackendError.self) {
        try await backend.signIn(.username("alice", password: "secret1"))
      }
      #expect(error.code.name == "malformedResponse")
      #expect(error.backendCode == "E100001")
      #expect(try await store.load().session == nil)
    }
  }
}
