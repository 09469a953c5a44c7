import BackendHTTP
import Foundation
import Testing
import UserBackends

@Suite("Configuration problems name the setting, before any request", .timeLimit(.minutes(1)))
struct ConfigurationProblemTests {
  static let firebase = ["BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "BAAS_HOME": "/tmp"]

  private func resolveError(_ extra: [String: String], base: [String: String] = firebase)
    throws -> BackendConfigurationError
  {
    try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: base.merging(extra) { $1 })
    }
  }

  @Test(
    "an IPv6 literal emulator host in brackets is accepted (the default transport reaches it)",
    arguments: ["[::1]:9099", "[fd12::1]:9099", "[FD00::1]:9099"])
  func ipv6EmulatorHost(host: String) throws {
    let configuration = try BackendConfiguration.resolve(
      environment: Self.firebase.merging([
        "FIREBASE_AUTH_EMULATOR_HOST": host, "FIRESTORE_EMULATOR_HOST": host,
      ]) { $1 })
    #expect(configuration.firebase.emulatorHost == host)
    #expect(configuration.firebase.firestoreEmulatorHost == host)
  }

  @Test(
    "an IPv6 literal NCMB base URL is accepted (the default transport reaches it)",
    arguments: ["http://[::1]:9099", "https://[2001:db8::1]/", "http://[::1]"])
  func ipv6NCMBBaseURL(url: String) throws {
    let configuration = try BackendConfiguration.resolve(
      environment: [
        "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
        "BAAS_HOME": "/tmp", "NCMB_BASE_URL": url,
      ])
    #expect(try configuration.ncmbBaseURL().host?.contains(":") == true)
  }

  @Test(
    "an NCMB base URL whose port no connection can use names NCMB_BASE_URL (exit 2, no request)",
    arguments: [
      "http://127.0.0.1:0", "http://127.0.0.1:65536", "http://127.0.0.1:99999",
      "http://127.0.0.1:18446744073709551617", "http://127.0.0.1:/",
    ])
  func unusablePortNCMBBaseURL(url: String) throws {
    let error = try resolveError(
      ["NCMB_BASE_URL": url],
      base: [
        "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
        "BAAS_HOME": "/tmp",
      ])
    #expect(error.setting.contains("NCMB_BASE_URL"), "\(error)")
    #expect(error.kind == .invalidSetting)
    #expect(error.reason == URLLoaderSupport.portReason)
  }

  @Test(
    "project IDs outside Google's rule are refused, naming FIREBASE_PROJECT_ID",
    arguments: [
      String(repeating: "a", count: 300), "プロジェクト", "projet-é", "My-Project", "abc",
      "1project", "project-", "my_project", "my.project", "a234567890123456789012345678901",
      " my-project",
    ])
  func badProjectID(projectID: String) throws {
    for emulator in [nil, "127.0.0.1:9099"] as [String?] {
      var extra = ["FIREBASE_PROJECT_ID": projectID]
      if let emulator { extra["FIREBASE_AUTH_EMULATOR_HOST"] = emulator }
      let error = try resolveError(extra)
      #expect(error.setting.contains("FIREBASE_PROJECT_ID"), "\(error)")
      #expect(!error.reason.contains(projectID) || projectID.count < 40)
    }
  }

  @Test(
    "project IDs within the rule, demo- IDs for the emulator included, are accepted",
    arguments: [
      "demo-project", "demo-test", "demo-e2e", "my-project-1234", "abcdef",
      "a23456789012345678901234567890", "firebase", "default",
    ])
  func goodProjectID(projectID: String) throws {
    for emulator in [nil, "127.0.0.1:9099"] as [String?] {
      var environment = Self.firebase
      environment["FIREBASE_PROJECT_ID"] = projectID
      if let emulator { environment["FIREBASE_AUTH_EMULATOR_HOST"] = emulator }
      let configuration = try BackendConfiguration.resolve(environment: environment)
      #expect(configuration.firebase.projectID == projectID)
    }
  }

  @Test("a config file's projectID is checked the same way")
  func projectIDInFile() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-config-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(#"{"backend":"firebase","firebase":{"apiKey":"k","projectID":"Bad ID"}}"#.utf8)
      .write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: ["BAAS_HOME": "/tmp"], configFile: file.path)
    }
    #expect(error.setting.contains("firebase.projectID"))
  }

  @Test("BAAS_HOME naming a regular file is an invalid BAAS_HOME")
  func homeIsAFile() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-home-file-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("x".utf8).write(to: file)
    for backend in ["fake", "firebase"] {
      let error = try resolveError(["BAAS_HOME": file.path, "BAAS_BACKEND": backend])
      #expect(error.setting.contains("BAAS_HOME"), "\(error)")
      #expect(error.kind == .invalidSetting)
      #expect(error.reason.contains("not a directory"), "\(error)")
    }
  }

  @Test("two Firebase configurations that differ in project or emulator never share a file")
  func namespacesAreDistinct() {
    func firebase(_ projectID: String?, _ emulator: String? = nil) -> BackendConfiguration {
      BackendConfiguration(
        backend: .firebase,
        firebase: .init(apiKey: "k", projectID: projectID, emulatorHost: emulator))
    }
    let configurations = [
      firebase(nil), firebase("default"),
      firebase("abcdef", "localhost:9099"), firebase("emulator-abcdef-localhost-9099"),
      firebase(nil, "demo-abc:9099"), firebase("demo-abc", "localhost:9099"),
      firebase("abcdef-1", "h:9099"), firebase("abcdef", "1-h:9099"),
      firebase(nil, "127.0.0.1:9099"), firebase("default", "127.0.0.1:9099"),
    ]
    let names = configurations.map(UserBackends.sessionNamespace(for:))
    #expect(Set(names).count == names.count, "\(names)")
  }
}
