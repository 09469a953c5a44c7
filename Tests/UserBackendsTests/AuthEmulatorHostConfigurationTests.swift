import Foundation
import Testing
import UserBackends

/// `FIREBASE_AUTH_EMULATOR_HOST` (and `firebase.emulatorHost`) is refused for a public
/// host: the API key and the password would go to it in plain HTTP.
@Suite("baas configuration: a public Auth emulator host", .timeLimit(.minutes(1)))
struct AuthEmulatorHostConfigurationTests {
  private let environment = [
    "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "demo-project",
    "BAAS_HOME": FileManager.default.temporaryDirectory
      .appendingPathComponent("AuthEmulatorHostConfigurationTests").path,
  ]

  @Test(
    "a public FIREBASE_AUTH_EMULATOR_HOST is refused, naming it",
    arguments: ["203.0.113.5:80", "auth.example.com:9099", "[2001:db8::1]:9099"])
  func publicRefused(host: String) throws {
    var environment = self.environment
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = host
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: environment)
    }
    #expect(error.kind == .invalidSetting)
    #expect(error.setting.contains("FIREBASE_AUTH_EMULATOR_HOST"), "\(error)")
    #expect(error.reason.contains("plain HTTP"), "\(error)")
  }

  @Test(
    "loopback and private FIREBASE_AUTH_EMULATOR_HOST values are accepted",
    arguments: ["127.0.0.1:9099", "localhost:9099", "10.0.0.5:9099", "emulator:9099"])
  func privateAccepted(host: String) throws {
    var environment = self.environment
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = host
    let configuration = try BackendConfiguration.resolve(environment: environment)
    #expect(configuration.firebase.emulatorHost == host)
  }
}
