import Foundation
import Testing

/// `baas` with production Firebase Auth (no `FIREBASE_AUTH_EMULATOR_HOST`) and
/// `FIRESTORE_EMULATOR_HOST` set sends the production ID token in plain HTTP to the
/// Firestore emulator: it says so once on standard error, naming both settings (never the
/// token); to a public host the library refuses the setting (exit 2).
@Suite("baas: production Auth with FIRESTORE_EMULATOR_HOST", .timeLimit(.minutes(2)))
struct FirestoreProductionTokenWarningTests {
  static let production = [
    "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
    "FIREBASE_PROJECT_ID": "demo-project",
  ]

  @Test("a private Firestore emulator host: one warning naming both settings")
  func warns() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    var environment = Self.production
    environment["FIRESTORE_EMULATOR_HOST"] = "127.0.0.1:8080"
    let result = try await baas.run(["whoami"], environment: environment)
    let warnings = result.standardError.split(separator: "\n").filter {
      $0.contains("warning") && $0.contains("FIRESTORE_EMULATOR_HOST")
    }
    #expect(warnings.count == 1, "\(result.allOutput)")
    #expect(warnings.first?.contains("FIREBASE_AUTH_EMULATOR_HOST") == true, "\(result.allOutput)")
    #expect(warnings.first?.contains("plain HTTP") == true, "\(result.allOutput)")
  }

  @Test("baas record against production warns the same way, before any request")
  func recordWarns() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    var environment = Self.production
    environment["FIRESTORE_EMULATOR_HOST"] = "10.0.0.5:8080"
    let result = try await baas.run(
      [
        "record", "--backend", "firebase", "--contracts",
        repositoryRoot.appendingPathComponent("Contracts").path, "--out",
        baas.home.appendingPathComponent("out").path, "--only", "no-such-contract",
      ], environment: environment)
    #expect(result.status == 2, "\(result.allOutput)")
    let warnings = result.standardError.split(separator: "\n").filter {
      $0.contains("warning") && $0.contains("FIRESTORE_EMULATOR_HOST")
    }
    #expect(warnings.count == 1, "\(result.allOutput)")
  }

  @Test("baas verify --backends firebase-live warns the same way")
  func verifyWarns() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("contracts", isDirectory: true)
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    var environment = Self.production
    environment["FIRESTORE_EMULATOR_HOST"] = "10.0.0.5:8080"
    // No contract: nothing is sent.
    let result = try await baas.run(
      ["verify", "--backends", "firebase-live", "--contracts", contracts.path],
      environment: environment)
    let warnings = result.standardError.split(separator: "\n").filter {
      $0.contains("warning") && $0.contains("FIRESTORE_EMULATOR_HOST")
    }
    #expect(warnings.count == 1, "\(result.allOutput)")
  }

  @Test("with the Auth emulator too: no warning")
  func quietWithAuthEmulator() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    var environment = Self.production
    environment["FIRESTORE_EMULATOR_HOST"] = "127.0.0.1:8080"
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:9099"
    let result = try await baas.run(["whoami"], environment: environment)
    #expect(!result.standardError.contains("FIRESTORE_EMULATOR_HOST"), "\(result.allOutput)")
  }

  @Test("a public Firestore emulator host with production Auth is refused, exit 2")
  func refusedForPublicHost() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    var environment = Self.production
    environment["FIRESTORE_EMULATOR_HOST"] = "203.0.113.5:8080"
    let result = try await baas.run(["whoami"], environment: environment)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("FIRESTORE_EMULATOR_HOST"), "\(result.allOutput)")
  }
}
