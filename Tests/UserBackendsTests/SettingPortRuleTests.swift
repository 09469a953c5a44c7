import Foundation
import Testing
import UserBackendKit
import UserBackends

/// Every setting that names a port reads it by the one rule (1…65535, plain digits, no
/// leading zeros, not empty): the emulator hosts and the NCMB base URL.
@Suite("Settings: ports under the one rule", .timeLimit(.minutes(1)))
struct SettingPortRuleTests {
  static let badHostPorts = [
    "127.0.0.1:065", "127.0.0.1:", "localhost:0080", "[::1]:065", "[::1]:",
  ]

  @Test(
    "an emulator host with a leading-zero or empty port is refused naming the variable",
    arguments: badHostPorts)
  func emulatorHost(host: String) throws {
    for variable in ["FIREBASE_AUTH_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST"] {
      let error = try #require(throws: BackendConfigurationError.self) {
        try BackendConfiguration.resolve(
          environment: [
            "HOME": "/home/u", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "demo-p",
            variable: host,
          ], backend: "firebase")
      }
      #expect(error.setting.contains(variable), "\(error)")
      #expect(error.reason.contains("leading zeros"), "\(error)")
      #expect(error.description.contains("\(variable) (config key"), "\(error)")
    }
  }

  @Test(
    "an NCMB base URL with a leading-zero or empty port is refused naming NCMB_BASE_URL",
    arguments: [
      "http://127.0.0.1:065", "http://127.0.0.1:", "https://h.example:0443/", "http://[::1]:/",
    ])
  func ncmbBaseURL(url: String) throws {
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(
        environment: [
          "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
          "BAAS_HOME": "/tmp", "NCMB_BASE_URL": url,
        ])
    }
    #expect(error.setting.contains("NCMB_BASE_URL"), "\(error)")
    #expect(error.reason.contains("leading zeros"), "\(error)")
  }
}
