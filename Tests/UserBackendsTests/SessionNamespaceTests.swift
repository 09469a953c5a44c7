import Foundation
import Testing
import UserBackends

@Suite("Session files are namespaced per backend and project", .timeLimit(.minutes(2)))
struct SessionNamespaceTests {
  static let configurations: [BackendConfiguration] = [
    BackendConfiguration(backend: .fake),
    BackendConfiguration(backend: .firebase, firebase: .init(apiKey: "k", projectID: "alpha")),
    BackendConfiguration(backend: .firebase, firebase: .init(apiKey: "k", projectID: "beta")),
    BackendConfiguration(
      backend: .firebase,
      firebase: .init(apiKey: "k", projectID: "alpha", emulatorHost: "127.0.0.1:9099")),
    BackendConfiguration(
      backend: .ncmb, ncmb: .init(applicationKey: "app-one-secret", clientKey: "c")),
    BackendConfiguration(
      backend: .ncmb, ncmb: .init(applicationKey: "app-two-secret", clientKey: "c")),
    BackendConfiguration(
      backend: .ncmb,
      ncmb: .init(
        applicationKey: "app-one-secret", clientKey: "c",
        baseURL: "http://127.0.0.1:9099")),
  ]

  @Test("every backend, project, emulator and NCMB app gets its own file")
  func distinct() {
    let names = Self.configurations.map(UserBackends.sessionNamespace(for:))
    #expect(Set(names).count == names.count, "\(names)")
    #expect(names[0] == "fake")
    #expect(names[1] == "firebase-alpha")
    #expect(names[3] == "firebase-emulator_alpha_127.0.0.1_9099")
    #expect(names[4].hasPrefix("ncmb-mbaas.api.nifcloud.com-"))
    #expect(names[6].hasPrefix("ncmb-127.0.0.1-9099-"))
  }

  @Test("the NCMB application key never appears in the file name")
  func noKeyInName() throws {
    for configuration in Self.configurations {
      let name = UserBackends.sessionNamespace(for: configuration)
      #expect(!name.contains("secret"))
    }
    var configuration = Self.configurations[4]
    configuration.home = "/state"
    let store = try UserBackends.sessionStore(for: configuration)
    #expect(store.fileURL.deletingLastPathComponent().path == "/state")
    #expect(!store.fileURL.lastPathComponent.contains("app-one-secret"))
  }

  @Test("a configuration without a state directory cannot make a session store")
  func noHome() throws {
    let error = try #require(throws: BackendConfigurationError.self) {
      try UserBackends.sessionStore(for: BackendConfiguration())
    }
    #expect(error.setting.contains("BAAS_HOME"))
  }
}
