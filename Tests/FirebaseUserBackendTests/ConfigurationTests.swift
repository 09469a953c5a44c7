import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase configuration", .timeLimit(.minutes(2)))
struct ConfigurationTests {
  @Test("an empty API key is refused before any request", arguments: ["", "   "])
  func emptyAPIKey(key: String) throws {
    let transport = StubTransport(json: "{}")
    let error = #expect(throws: UserBackendError.self) {
      _ = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(apiKey: key), transport: transport,
        sessionStore: InMemorySessionStore())
    }
    #expect(error?.code == .misconfigured(setting: "apiKey", reason: "must not be empty"))
    #expect(transport.count == 0)
  }

  @Test("production URLs carry the percent-encoded key")
  func productionURLs() throws {
    let endpoints = try FirebaseConfiguration(apiKey: "a+b/c=d").resolvedEndpoints()
    #expect(
      endpoints.url(for: .identityToolkit("accounts:signUp"))?.absoluteString
        == "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=a%2Bb%2Fc%3Dd")
    #expect(
      endpoints.url(for: .secureToken)?.absoluteString
        == "https://securetoken.googleapis.com/v1/token?key=a%2Bb%2Fc%3Dd")
  }

  /// IPv6 literals in brackets too: the default transport reaches them on every platform.
  static let emulatorHosts: [(String, String)] = [
    ("127.0.0.1:9099", "http://127.0.0.1:9099/"),
    ("localhost:9099", "http://localhost:9099/"),
    ("firebase-emulator:9099", "http://firebase-emulator:9099/"),
    ("[::1]:9099", "http://[::1]:9099/"),
  ]

  @Test("the emulator host switches to the emulator URL form", arguments: emulatorHosts)
  func emulatorURLs(host: String, base: String) throws {
    let endpoints = try FirebaseConfiguration(apiKey: "K", emulatorHost: host)
      .resolvedEndpoints()
    #expect(
      endpoints.url(for: .identityToolkit("accounts:lookup"))?.absoluteString
        == base + "identitytoolkit.googleapis.com/v1/accounts:lookup?key=K")
    #expect(
      endpoints.url(for: .secureToken)?.absoluteString
        == base + "securetoken.googleapis.com/v1/token?key=K")
  }

  @Test(
    "a malformed emulator host is refused",
    arguments: [
      "127.0.0.1", "http://127.0.0.1:9099", ":9099", "host:0", "host:70000", "::1:9099",
      "host:+9099", "host:٩٠٩٩", "host:", "host:99999999999999999999",
    ])
  func badEmulatorHost(host: String) {
    let error = #expect(throws: UserBackendError.self) {
      _ = try FirebaseConfiguration(apiKey: "K", emulatorHost: host).resolvedEndpoints()
    }
    guard case .misconfigured(let setting, _) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "emulatorHost")
  }

  @Test(
    "plain HTTP is refused unless the host is loopback or the emulator host",
    arguments: [
      ("http://example.com/v1/", nil, false),
      ("http://10.0.0.5:9099/identitytoolkit.googleapis.com/v1/", "127.0.0.1:9099", false),
      ("http://127.0.0.1:8080/v1/", nil, true),
      ("http://localhost:8080/v1/", nil, true),
      ("http://emu:9099/identitytoolkit.googleapis.com/v1/", "emu:9099", true),
      ("https://proxy.example.com/v1/", nil, true),
      ("ftp://proxy.example.com/v1/", nil, false),
      // Loopback by the shared rule: standard address spellings only.
      ("http://127.0.0.+1:8080/v1/", nil, false), ("http://[::ffff:127.0.0.1]:8080/v1/", nil, true),
      ("http://api.localhost:8080/v1/", nil, true),
    ] as [(String, String?, Bool)])
  func plainHTTP(url: String, emulatorHost: String?, allowed: Bool) throws {
    let configuration = FirebaseConfiguration(
      apiKey: Fixture.apiKey, emulatorHost: emulatorHost,
      identityToolkitBaseURL: URL(string: url))
    let transport = StubTransport(json: "{}")
    do {
      _ = try FirebaseUserBackend(
        configuration: configuration, transport: transport, sessionStore: InMemorySessionStore())
      #expect(allowed, "\(url) should have been refused")
    } catch {
      #expect(!allowed, "\(url) should have been accepted: \(error)")
      guard case .misconfigured(let setting, _) = error.code else {
        Issue.record("expected misconfigured, got \(error)")
        return
      }
      #expect(setting == "identityToolkitBaseURL")
      #expect(!error.description.contains(Fixture.apiKey))
    }
    #expect(transport.count == 0)
  }

  @Test("a plain-HTTP secure token override to a remote host is refused")
  func plainHTTPSecureToken() {
    let configuration = FirebaseConfiguration(
      apiKey: "K", secureTokenURL: URL(string: "http://tokens.example.com/v1/token"))
    let error = #expect(throws: UserBackendError.self) {
      _ = try configuration.resolvedEndpoints()
    }
    guard case .misconfigured(let setting, _) = error?.code else {
      Issue.record("expected misconfigured")
      return
    }
    #expect(setting == "secureTokenURL")
  }

  @Test("descriptions never show the API key")
  func redactedDescription() {
    let configuration = FirebaseConfiguration(
      apiKey: Fixture.apiKey, projectID: "demo-project", emulatorHost: "127.0.0.1:9099")
    #expect(!configuration.description.contains(Fixture.apiKey))
    #expect(!String(reflecting: configuration).contains(Fixture.apiKey))
    #expect(configuration.description.contains("demo-project"))
  }

  @Test("session namespaces separate projects and the emulator")
  func namespaces() {
    #expect(FirebaseConfiguration(apiKey: "K", projectID: "p1").sessionNamespace == "firebase-p1")
    #expect(FirebaseConfiguration(apiKey: "K").sessionNamespace == "firebase")
    #expect(
      FirebaseConfiguration(apiKey: "K", projectID: "p1", emulatorHost: "127.0.0.1:9099")
        .sessionNamespace == "firebase-emulator_p1")
    #expect(
      FirebaseConfiguration(apiKey: "K", projectID: "default").sessionNamespace
        != FirebaseConfiguration(apiKey: "K").sessionNamespace)
  }

  @Test("the backend reports its ID and capabilities")
  func capabilities() throws {
    let backend = try Fixture.backend(StubTransport(json: "{}"))
    #expect(backend.backendID == "firebase")
    #expect(
      backend.capabilities == [
        .emailPassword, .tokenRefresh, .anonymousSignIn, .phoneNumberSignIn,
        .identityProviderSignIn, .passwordReset, .accountDeletion, .authStateChanges,
        .userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .emailVerification,
        .passwordResetCompletion, .reauthentication, .recentLoginRequirement,
        .anonymousUpgrade, .userDocuments, .passwordChangeRevokesSessions,
      ])
  }

  /// Endpoint URLs no request can use, with the reason given: a port no TCP connection can
  /// use; a query or fragment (the operation and key would land in it); a user name or
  /// password (the network transports refuse it).
  static let unusableEndpoints: [(url: String, reason: String)] = [
    ("http://127.0.0.1:0/v1/", URLLoaderSupport.portReason),
    ("http://127.0.0.1:65536/v1/", URLLoaderSupport.portReason),
    ("https://h.example:99999/v1/", URLLoaderSupport.portReason),
    ("https://h.example:18446744073709551617/v1/", URLLoaderSupport.portReason),
    ("https://h.example/v1/?x=1", "must not have a query or a fragment"),
    ("https://h.example/v1/#frag", "must not have a query or a fragment"),
    ("https://h.example/t#f", "must not have a query or a fragment"),
    ("https://u:p@h.example/v1/", "must not carry a user name or password"),
    ("https://u@h.example/v1/", "must not carry a user name or password"),
  ]

  @Test(
    "an endpoint URL no request can use is refused before any request, for either endpoint",
    arguments: unusableEndpoints)
  func unusableEndpoint(_ endpoint: (url: String, reason: String)) throws {
    for toolkit in [true, false] {
      let configuration = FirebaseConfiguration(
        apiKey: Fixture.apiKey,
        identityToolkitBaseURL: toolkit ? URL(string: endpoint.url) : nil,
        secureTokenURL: toolkit ? nil : URL(string: endpoint.url))
      let transport = StubTransport(json: "{}")
      let error = #expect(throws: UserBackendError.self) {
        _ = try FirebaseUserBackend(
          configuration: configuration, transport: transport, sessionStore: InMemorySessionStore())
      }
      #expect(
        error?.code
          == .misconfigured(
            setting: toolkit ? "identityToolkitBaseURL" : "secureTokenURL",
            reason: endpoint.reason))
      #expect(transport.requests.isEmpty)
    }
  }
}
