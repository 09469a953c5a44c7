import Foundation
import Testing
import UserBackends

/// Secret values planted in every error test: none may appear in any error text.
let plantedSecrets = [
  "AIzaSyPLANTED-firebase-api-key-000",
  "planted-ncmb-application-key-111",
  "planted-ncmb-client-key-222",
]

/// Resolves, expecting a ``BackendConfigurationError``, and checks that no planted secret
/// leaks into its description or into its `--json` form.
func expectConfigurationError(
  _ environment: [String: String], configFile: String? = nil, backend: String? = nil
) throws -> BackendConfigurationError {
  let error = try #require(throws: BackendConfigurationError.self) {
    try BackendConfiguration.resolve(
      environment: environment, configFile: configFile, backend: backend)
  }
  let texts = [
    error.description, error.reason, error.setting, "\(error.userBackendError)",
    error.userBackendError.message, String(reflecting: error),
  ]
  for text in texts {
    for secret in plantedSecrets {
      #expect(!text.contains(secret), "a secret leaked into: \(text)")
    }
  }
  return error
}

@Suite("Configuration errors name the setting and never print a secret", .timeLimit(.minutes(2)))
struct ConfigurationErrorTests {
  let base = [
    "HOME": "/home/u",
    "FIREBASE_API_KEY": plantedSecrets[0],
    "NCMB_APPLICATION_KEY": plantedSecrets[1],
    "NCMB_CLIENT_KEY": plantedSecrets[2],
  ]

  @Test("an unknown backend name lists the known ones")
  func unknownBackend() throws {
    var environment = base
    environment["BAAS_BACKEND"] = "parse"
    let error = try expectConfigurationError(environment)
    #expect(error.kind == .unknownBackend)
    #expect(error.setting == "BAAS_BACKEND (config key backend)")
    #expect(error.description.contains("fake, firebase, ncmb"))
  }

  @Test("a secret pasted as the backend name is not echoed")
  func secretAsBackendName() throws {
    var environment = base
    environment["BAAS_BACKEND"] = plantedSecrets[2]
    let error = try expectConfigurationError(environment)
    #expect(error.kind == .unknownBackend)
  }

  @Test("an unknown --backend names the option")
  func unknownBackendOption() throws {
    let error = try expectConfigurationError(base, backend: "supabase")
    #expect(error.setting == "--backend")
  }

  @Test("firebase without an API key names FIREBASE_API_KEY")
  func missingAPIKey() throws {
    var environment = base
    environment["FIREBASE_API_KEY"] = nil
    let error = try expectConfigurationError(environment, backend: "firebase")
    #expect(error.kind == .missingSetting)
    #expect(error.setting.contains("FIREBASE_API_KEY"))
    #expect(error.setting.contains("firebase.apiKey"))
  }

  @Test("a blank API key is invalid")
  func blankAPIKey() throws {
    var environment = base
    environment["FIREBASE_API_KEY"] = "   "
    let error = try expectConfigurationError(environment, backend: "firebase")
    #expect(error.kind == .invalidSetting)
    #expect(error.setting.contains("FIREBASE_API_KEY"))
  }

  @Test(
    "ncmb without a key names the missing one",
    arguments: [
      ("NCMB_APPLICATION_KEY", "ncmb.applicationKey"), ("NCMB_CLIENT_KEY", "ncmb.clientKey"),
    ])
  func missingNCMBKey(variable: String, key: String) throws {
    var environment = base
    environment[variable] = nil
    let error = try expectConfigurationError(environment, backend: "ncmb")
    #expect(error.kind == .missingSetting)
    #expect(error.setting.contains(variable))
    #expect(error.setting.contains(key))
  }

  @Test(
    "a bad NCMB_BASE_URL is rejected",
    arguments: [
      "mbaas.api.nifcloud.com", "ftp://example.com", "http://", "https://h/x?key=1",
      "not a url", "https://h#frag",
    ])
  func badBaseURL(url: String) throws {
    var environment = base
    environment["NCMB_BASE_URL"] = url
    let error = try expectConfigurationError(environment, backend: "ncmb")
    #expect(error.kind == .invalidSetting)
    #expect(error.setting.contains("NCMB_BASE_URL"))
  }

  @Test(
    "a bad FIREBASE_AUTH_EMULATOR_HOST is rejected",
    arguments: [
      "127.0.0.1", "http://127.0.0.1:9099", "127.0.0.1:0", "127.0.0.1:65536", ":9099",
      "localhost:port", "host/path:9099", "::1:9099", "127.0.0.1:9099/",
    ])
  func badEmulatorHost(host: String) throws {
    var environment = base
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = host
    let error = try expectConfigurationError(environment, backend: "firebase")
    #expect(error.kind == .invalidSetting)
    #expect(error.setting.contains("FIREBASE_AUTH_EMULATOR_HOST"))
  }

  @Test(
    "good emulator hosts are accepted",
    arguments: [
      ("127.0.0.1:9099", "127.0.0.1", 9099), ("localhost:1", "localhost", 1),
      ("[::1]:65535", "::1", 65535),
    ])
  func goodEmulatorHost(text: String, host: String, port: Int) throws {
    let parsed = try BackendConfiguration.parseHostPort(text)
    #expect(parsed.host == host)
    #expect(parsed.port == port)
  }

  @Test("settings of a backend that is not selected are not checked")
  func otherBackendIgnored() throws {
    let configuration = try BackendConfiguration.resolve(
      environment: ["HOME": "/h", "NCMB_BASE_URL": "not a url"])
    #expect(configuration.backend == .fake)
  }

  @Test(
    "a key given twice in the config file is an error naming it, for library callers too",
    arguments: [
      (#"{"backend":"fake","backend":"ncmb"}"#, "backend"),
      (#"{"ncmb":{"clientKey":"a","clientKey":"b"}}"#, "clientKey"),
    ])
  func duplicateKey(json: String, key: String) throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(json, in: directory)
      let error = try #require(throws: BackendConfigurationError.self) {
        try BackendConfiguration.load(file: path)
      }
      #expect(error.kind == .unreadableFile)
      #expect(error.setting.contains(path))
      #expect(error.reason.contains("\"\(key)\" appears twice"), "\(error)")
    }
  }

  @Test("an unknown key in the file is named")
  func unknownFileKey() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(
        #"{"firebase": {"apikey": "\#(plantedSecrets[0])"}}"#, in: directory)
      let error = try expectConfigurationError(base, configFile: path)
      #expect(error.kind == .unreadableFile)
      #expect(error.setting.contains("firebase.apikey"))
    }
  }

  @Test("a value of the wrong type names the key, not the value")
  func wrongType() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(#"{"ncmb": {"clientKey": 12345}}"#, in: directory)
      let error = try expectConfigurationError(base, configFile: path)
      #expect(error.kind == .unreadableFile)
      #expect(error.setting.contains("ncmb.clientKey"))
      #expect(!error.description.contains("12345"))
    }
  }

  @Test("a file that is not JSON, or missing, is an unreadable file")
  func badFile() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(
        #"{"backend": "fake", "firebase": "unterminated "# + plantedSecrets[1], in: directory)
      let error = try expectConfigurationError(base, configFile: path)
      #expect(error.kind == .unreadableFile)
      let missing = try expectConfigurationError(
        base, configFile: directory.appendingPathComponent("nope.json").path)
      #expect(missing.kind == .unreadableFile)
      #expect(missing.setting.contains("nope.json"))
    }
  }

  @Test("an unknown backend in the file names the file's key")
  func unknownBackendInFile() throws {
    try withTemporaryDirectory { directory in
      let path = try writeConfig(#"{"backend": "amplify"}"#, in: directory)
      let error = try expectConfigurationError(base, configFile: path)
      #expect(error.kind == .unknownBackend)
      #expect(error.setting.contains("config file"))
    }
  }
}
