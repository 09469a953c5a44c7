import Foundation
import Testing
import UserBackendKit
import UserBackends

/// The `baas` configuration and the Firebase adapter read `FIREBASE_AUTH_EMULATOR_HOST`
/// and `FIRESTORE_EMULATOR_HOST`: a value one accepts, the other must accept, or a setting
/// that `baas config check` passes fails when the backend is built.
@Suite("Emulator host settings: configuration and adapter agree", .timeLimit(.minutes(1)))
struct EmulatorHostAgreementTests {
  static let hosts = [
    "127.0.0.1:9099", "localhost:9099", "[::1]:9099", "emulator_1:9099", "a?b:9099",
    "exämple:9099", "a..b:9099", "host:0080", "127.1:9099", "::1:9099", "user@host:9099",
    "host:9099#x", "[::1]:9099 ", "bad host:9099", "[zz]:9099",
  ]

  @Test("FIREBASE_AUTH_EMULATOR_HOST and FIRESTORE_EMULATOR_HOST", arguments: hosts)
  func agree(host: String) async throws {
    for variable in ["FIREBASE_AUTH_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST"] {
      let environment = [
        "HOME": "/home/u", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "demo-p",
        variable: host,
      ]
      let configuration = try? BackendConfiguration.resolve(
        environment: environment, backend: "firebase")
      var built: (any UserBackend)?
      if let configuration {
        built = try? await UserBackends.make(
          from: configuration, sessionStore: InMemorySessionStore())
      }
      let configured = configuration == nil ? "refused" : "accepted"
      let adapter = built == nil ? "refused" : "accepted"
      #expect(configured == adapter, "\(variable)=\(host): configuration \(configured)")
    }
  }
}
