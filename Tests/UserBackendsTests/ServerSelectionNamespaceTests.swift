import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit
import UserBackends

/// A session token is only ever sent to the server that issued it: everything that
/// selects the server (NCMB: scheme, host, port, path prefix; Firebase: project, API key,
/// emulator) is part of the session file's name, and plain HTTP to NCMB is refused unless
/// the host is loopback.
@Suite("The session file and the transport rule follow the server", .timeLimit(.minutes(1)))
struct ServerSelectionNamespaceTests {
  static func ncmb(_ baseURL: String?, key: String = "app-key-secret") -> BackendConfiguration {
    BackendConfiguration(
      backend: .ncmb, ncmb: .init(applicationKey: key, clientKey: "c", baseURL: baseURL))
  }

  @Test("NCMB base URLs that differ in scheme or path prefix never share a session file")
  func ncmbSchemeAndPath() {
    let bases = [
      "http://127.0.0.1:9099", "https://127.0.0.1:9099", "http://127.0.0.1:9099/other/prefix",
      "http://127.0.0.1:9099/other", "https://127.0.0.1:9099/other/prefix",
      "http://localhost:9099", "http://[::1]:9099", "http://127.0.0.1:9099/a%2Fb",
      "http://127.0.0.1:9099/a/b",
    ]
    let names = bases.map { UserBackends.sessionNamespace(for: Self.ncmb($0)) }
    #expect(Set(names).count == names.count, "\(names)")
    for name in names { #expect(!name.contains("secret")) }
  }

  @Test("trailing slashes and the case of scheme and host do not change the file")
  func ncmbNormalized() {
    let same = [
      "http://127.0.0.1:9099/prefix", "http://127.0.0.1:9099/prefix/",
      "HTTP://127.0.0.1:9099/prefix",
    ]
    let names = Set(same.map { UserBackends.sessionNamespace(for: Self.ncmb($0)) })
    #expect(names.count == 1, "\(names)")
    // The host's case never selects another file, for either backend.
    let upper = Set(
      ["http://localhost:9099", "http://LOCALHOST:9099", "https://MBAAS.api.nifcloud.com"]
        .map { UserBackends.sessionNamespace(for: Self.ncmb($0)) })
    #expect(upper.count == 2, "\(upper)")
    let firebase = Set(
      ["localhost:9099", "LOCALHOST:9099", "LocalHost:9099"].map { host in
        UserBackends.sessionNamespace(
          for: BackendConfiguration(
            backend: .firebase,
            firebase: .init(apiKey: "k", projectID: "demo-p", emulatorHost: host)))
      })
    #expect(firebase.count == 1, "\(firebase)")
  }

  @Test("an https base URL without a prefix keeps the file name of earlier versions")
  func ncmbStableName() {
    for base in [nil, "https://mbaas.api.nifcloud.com", "https://mbaas.api.nifcloud.com/"] {
      let name = UserBackends.sessionNamespace(for: Self.ncmb(base, key: "k"))
      // ncmb-<host>-<12 hex digits of SHA-256("k")>
      #expect(name == "ncmb-mbaas.api.nifcloud.com-8254c329a928")
    }
  }

  @Test("Firebase production without a project ID: the API key selects the project")
  func firebaseAPIKey() {
    func firebase(_ key: String, _ project: String? = nil) -> BackendConfiguration {
      BackendConfiguration(backend: .firebase, firebase: .init(apiKey: key, projectID: project))
    }
    let names = [
      firebase("key-one-secret"), firebase("key-two-secret"), firebase("k", "key-abcdef"),
      firebase("k", "alpha"),
    ].map(UserBackends.sessionNamespace(for:))
    #expect(Set(names).count == names.count, "\(names)")
    for name in names { #expect(!name.contains("secret")) }
    #expect(names[3] == "firebase-alpha")
  }

  @Test(
    "plain HTTP to a public NCMB host is refused before any request",
    arguments: [
      "http://mbaas.api.nifcloud.com", "http://example.com:9099/prefix", "http://8.8.8.8:9099",
      "http://127.1:9099", "http://0.0.0.0:9099", "HTTP://Example.com", "http://[2001:db8::1]",
      "http://172.32.0.1", "http://emulator.local.example.com", "http://10.1",
      "http://example.com%00.internal", "http://1.1.1.1%2F.lan", "http://0x08080808",
    ])
  func plainHTTPRefused(base: String) throws {
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(
        environment: [
          "BAAS_HOME": "/nonexistent-state", "BAAS_BACKEND": "ncmb",
          "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c", "NCMB_BASE_URL": base,
        ])
    }
    #expect(error.setting.contains("NCMB_BASE_URL"))
    if !["http://127.1:9099", "http://0x08080808"].contains(base), !base.contains("%") {
      #expect(error.reason.contains("plain HTTP"))
    }
    let url = try #require(URL(string: base))
    let adapterError = #expect(throws: UserBackendError.self) {
      try NCMBConfiguration(applicationKey: "a", clientKey: "c", baseURL: url).validate()
    }
    guard case .misconfigured(let setting, _) = adapterError?.code else {
      Issue.record("not misconfigured: \(String(describing: adapterError))")
      return
    }
    #expect(setting == "baseURL")
  }

  @Test(
    "https anywhere and plain HTTP to loopback or a private network are accepted",
    arguments: [
      "https://mbaas.api.nifcloud.com", "https://example.com:8443/prefix",
      "http://127.0.0.1:9099", "http://127.9.9.9:9099/p", "http://localhost:9099",
      "http://emu.localhost:9099", "http://[::1]:9099", "http://10.0.0.1:9099",
      "http://192.168.1.10:9099", "http://172.20.0.5:9099", "http://emulator:9099",
      "http://ncmb.internal:9099", "http://[fd00::5]:9099", "http://box.local:9099",
    ])
  func accepted(base: String) throws {
    let configuration = try BackendConfiguration.resolve(
      environment: [
        "BAAS_HOME": "/nonexistent-state", "BAAS_BACKEND": "ncmb",
        "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c", "NCMB_BASE_URL": base,
      ])
    try NCMBConfiguration(
      applicationKey: "a", clientKey: "c", baseURL: try configuration.ncmbBaseURL()
    ).validate()
  }
}
