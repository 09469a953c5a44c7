import Foundation
import Testing
import UserBackendKit
import UserBackends

@Suite("UserBackends.make builds the configured backend", .timeLimit(.minutes(2)))
struct MakeBackendTests {
  @Test("the fake keeps users and the session in BAAS_HOME, both owner-only")
  func fakeAcrossInstances() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("MakeBackendTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let configuration = try BackendConfiguration.resolve(
      environment: ["BAAS_HOME": directory.path])
    let first = try await UserBackends.make(from: configuration)
    #expect(first.backendID == "fake")
    let session = try await first.signUp(.email("ada@example.com", password: "secret-pw-1"))

    let second = try await UserBackends.make(from: configuration)
    #expect(try await second.currentUser()?.id == session.user.id)

    for name in ["fake.sqlite", "fake.session.json"] {
      let path = directory.appendingPathComponent(name).path
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
      #expect(mode & 0o077 == 0, "\(name) is readable by others: \(String(mode, radix: 8))")
    }
  }

  @Test(
    "firebase and ncmb are built from their settings without a network call",
    arguments: [
      (
        ["BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "my-project"],
        "firebase"
      ),
      (
        [
          "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k",
          "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099",
        ], "firebase"
      ),
      (
        [
          "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
          "NCMB_BASE_URL": "http://127.0.0.1:9099",
        ], "ncmb"
      ),
    ])
  func remoteBackends(environment: [String: String], backendID: String) async throws {
    var environment = environment
    environment["BAAS_HOME"] =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("MakeBackendTests-\(UUID().uuidString)").path
    let configuration = try BackendConfiguration.resolve(environment: environment)
    let backend = try await UserBackends.make(from: configuration)
    #expect(backend.backendID == backendID)
    #expect(try await backend.currentUser() == nil)
  }

  @Test("an invalid configuration is rejected by make too")
  func invalid() async throws {
    let configuration = BackendConfiguration(backend: .firebase, home: "/tmp")
    let error = try await #require(throws: BackendConfigurationError.self) {
      try await UserBackends.make(from: configuration)
    }
    #expect(error.setting.contains("FIREBASE_API_KEY"))
  }
}
