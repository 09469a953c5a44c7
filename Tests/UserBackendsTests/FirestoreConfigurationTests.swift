import FirebaseUserBackend
import Foundation
import Testing
import UserBackendKit
import UserBackends

/// `FIRESTORE_EMULATOR_HOST` and `firebase.firestoreEmulatorHost`.
@Suite("Firestore emulator configuration", .timeLimit(.minutes(1)))
struct FirestoreConfigurationTests {
  private let environment = [
    "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "demo-project",
    "BAAS_HOME": FileManager.default.temporaryDirectory
      .appendingPathComponent("FirestoreConfigurationTests").path,
  ]

  @Test("FIRESTORE_EMULATOR_HOST reaches the adapter's configuration")
  func variable() async throws {
    var environment = self.environment
    environment["FIRESTORE_EMULATOR_HOST"] = "127.0.0.1:8080"
    let configuration = try BackendConfiguration.resolve(environment: environment)
    #expect(configuration.firebase.firestoreEmulatorHost == "127.0.0.1:8080")
    #expect(configuration.description.contains("firestoreEmulatorHost: 127.0.0.1:8080"))
    let backend = try await UserBackends.make(
      from: configuration, sessionStore: InMemorySessionStore())
    let firebase = try #require(backend as? FirebaseUserBackend)
    #expect(firebase.configuration.firestoreEmulatorHost == "127.0.0.1:8080")
    #expect(backend.capabilities.contains(.userDocuments))
  }

  @Test("The config file key firebase.firestoreEmulatorHost is read; the variable wins")
  func fileKey() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("FirestoreConfigurationTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(#"{"firebase":{"firestoreEmulatorHost":"localhost:8081"}}"#.utf8).write(to: file)
    let fromFile = try BackendConfiguration.resolve(
      environment: environment, configFile: file.path)
    #expect(fromFile.firebase.firestoreEmulatorHost == "localhost:8081")
    var environment = self.environment
    environment["FIRESTORE_EMULATOR_HOST"] = "127.0.0.1:8080"
    let overridden = try BackendConfiguration.resolve(
      environment: environment, configFile: file.path)
    #expect(overridden.firebase.firestoreEmulatorHost == "127.0.0.1:8080")
  }

  @Test(
    "A bad FIRESTORE_EMULATOR_HOST is refused, naming it",
    arguments: ["127.0.0.1", "http://127.0.0.1:8080", "127.0.0.1:0", "h/p:8080"])
  func bad(host: String) throws {
    var environment = self.environment
    environment["FIRESTORE_EMULATOR_HOST"] = host
    let error = try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: environment)
    }
    #expect(error.kind == .invalidSetting)
    #expect(error.setting.contains("FIRESTORE_EMULATOR_HOST"), "\(error)")
    #expect(error.setting.contains("firebase.firestoreEmulatorHost"), "\(error)")
  }
}
