import Foundation
import Testing
import UserBackends

/// A temporary directory per test, removed at the end.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("UserBackendsTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Writes `json` to a config file in `directory`, owner-only (a file others may read is
/// refused when it holds a key).
func writeConfig(_ json: String, in directory: URL) throws -> String {
  let file = directory.appendingPathComponent("baas.json")
  try Data(json.utf8).write(to: file)
  try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
  return file.path
}

@Suite("Configuration: file, environment, precedence", .timeLimit(.minutes(2)))
struct ConfigurationResolutionTests {
  @Test("no file and no variables: the fake in $XDG_STATE_HOME/baas")
  func defaults() throws {
    let configuration = try BackendConfiguration.resolve(
      environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"])
    #expect(configuration.backend == .fake)
    #expect(configuration.home == "/state/baas")
    #expect(try configuration.ncmbBaseURL().absoluteString == "https://mbaas.api.nifcloud.com")
  }

  @Test("without XDG_STATE_HOME the state lives in ~/.local/state/baas")
  func homeFallback() throws {
    let configuration = try BackendConfiguration.resolve(environment: ["HOME": "/home/u"])
    #expect(configuration.home == "/home/u/.local/state/baas")
  }

  @Test("no BAAS_HOME, XDG_STATE_HOME or HOME is an error naming BAAS_HOME")
  func noHome() throws {
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: [:])
    }
    #expect(error.kind == .missingSetting)
    #expect(error.description.contains("BAAS_HOME"))
  }

  @Test("every key of the config file is decoded")
  func decodesFile() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(
        """
        {"backend": "ncmb", "home": "\(directory.path)/state",
         "firebase": {"apiKey": "AIzaFileKey", "projectID": "file-project",
                      "emulatorHost": "localhost:9099"},
         "ncmb": {"applicationKey": "file-app", "clientKey": "file-client",
                  "baseURL": "http://127.0.0.1:9099"}}
        """, in: directory)
      let configuration = try BackendConfiguration.resolve(environment: [:], configFile: path)
      #expect(configuration.backend == .ncmb)
      #expect(configuration.home == directory.path + "/state")
      #expect(configuration.firebase.apiKey == "AIzaFileKey")
      #expect(configuration.firebase.projectID == "file-project")
      #expect(configuration.firebase.emulatorHost == "localhost:9099")
      #expect(configuration.ncmb.applicationKey == "file-app")
      #expect(configuration.ncmb.clientKey == "file-client")
      #expect(try configuration.ncmbBaseURL().absoluteString == "http://127.0.0.1:9099")
    }
  }

  @Test("environment variables override the file; --backend overrides BAAS_BACKEND")
  func precedence() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(
        """
        {"backend": "firebase", "home": "/from-file",
         "firebase": {"apiKey": "file-key", "projectID": "file-project"},
         "ncmb": {"applicationKey": "file-app", "clientKey": "file-client"}}
        """, in: directory)
      let environment = [
        "BAAS_CONFIG": path, "BAAS_BACKEND": "ncmb", "BAAS_HOME": "/from-env",
        "FIREBASE_API_KEY": "env-key", "NCMB_CLIENT_KEY": "env-client",
        "NCMB_BASE_URL": "http://localhost:9099", "FIREBASE_PROJECT_ID": "",
      ]
      let fromEnvironment = try BackendConfiguration.resolve(environment: environment)
      #expect(fromEnvironment.backend == .ncmb)
      #expect(fromEnvironment.home == "/from-env")
      #expect(fromEnvironment.firebase.apiKey == "env-key")
      // An empty variable counts as unset: the file's value stays.
      #expect(fromEnvironment.firebase.projectID == "file-project")
      #expect(fromEnvironment.ncmb.applicationKey == "file-app")
      #expect(fromEnvironment.ncmb.clientKey == "env-client")
      #expect(fromEnvironment.ncmb.baseURL == "http://localhost:9099")

      let fromOption = try BackendConfiguration.resolve(
        environment: environment, backend: "firebase")
      #expect(fromOption.backend == .firebase)
    }
  }

  @Test("--config wins over BAAS_CONFIG")
  func configOptionWins() throws {
    try withTemporaryDirectory { directory in
      let named = try writeConfig(#"{"backend": "fake"}"#, in: directory)
      let other = directory.appendingPathComponent("other.json")
      try Data(#"{"backend": "bogus"}"#.utf8).write(to: other)
      let configuration = try BackendConfiguration.resolve(
        environment: ["BAAS_CONFIG": other.path, "HOME": "/h"], configFile: named)
      #expect(configuration.backend == .fake)
    }
  }

  @Test("~ in the file's home expands to $HOME; a relative BAAS_HOME becomes absolute")
  func pathExpansion() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(#"{"home": "~/baas-state"}"#, in: directory)
      let expanded = try BackendConfiguration.resolve(
        environment: ["HOME": "/home/u"], configFile: path)
      #expect(expanded.home == "/home/u/baas-state")
      let relative = try BackendConfiguration.resolve(environment: ["BAAS_HOME": "state"])
      #expect(relative.home?.hasPrefix("/") == true)
      #expect(relative.home?.hasSuffix("/state") == true)
    }
  }

  @Test("backend names are case-insensitive", arguments: ["FAKE", " firebase ", "Ncmb"])
  func backendNames(name: String) throws {
    let environment = [
      "HOME": "/h", "BAAS_BACKEND": name, "FIREBASE_API_KEY": "k",
      "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
    ]
    let configuration = try BackendConfiguration.resolve(environment: environment)
    #expect(
      configuration.backend.rawValue == name.trimmingCharacters(in: .whitespaces).lowercased())
  }

  @Test("a JSON round trip keeps every setting")
  func roundTrip() throws {
    let original = BackendConfiguration(
      backend: .firebase, home: "/s",
      firebase: .init(apiKey: "k", projectID: "p", emulatorHost: "127.0.0.1:9099"),
      ncmb: .init(applicationKey: "a", clientKey: "c", baseURL: "http://x"))
    let data = try JSONEncoder().encode(original)
    #expect(try JSONDecoder().decode(BackendConfiguration.self, from: data) == original)
  }

  @Test("description redacts the keys")
  func descriptionRedacts() {
    let configuration = BackendConfiguration(
      backend: .ncmb, firebase: .init(apiKey: "AIzaSecretKey0123"),
      ncmb: .init(applicationKey: "app-secret-4567", clientKey: "client-secret-89"))
    let text = "\(configuration)"
    for secret in ["AIzaSecretKey0123", "app-secret-4567", "client-secret-89"] {
      #expect(!text.contains(secret))
    }
    #expect(text.contains("<redacted>"))
  }
}
