import Foundation
import Testing

/// `baas` refuses a public `FIREBASE_AUTH_EMULATOR_HOST` before any request (exit 2,
/// naming the variable): the API key and the password would go to it in plain HTTP.
@Suite("baas: a public FIREBASE_AUTH_EMULATOR_HOST", .timeLimit(.minutes(2)))
struct AuthEmulatorHostScopeCLITests {
  @Test("signin to a public Auth emulator host is refused with exit 2, naming the variable")
  func refused() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let environment = [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "AIzaRealKeyForThisTest",
      "FIREBASE_PROJECT_ID": "demo-project", "FIREBASE_AUTH_EMULATOR_HOST": "203.0.113.5:80",
      "BAAS_PASSWORD": "pw-horse-77",
    ]
    let result = try await baas.run(
      ["signin", "--email", "ada@example.com"], environment: environment)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("FIREBASE_AUTH_EMULATOR_HOST"), "\(result.allOutput)")
    #expect(!result.allOutput.contains("AIzaRealKeyForThisTest"))
    #expect(!result.allOutput.contains("pw-horse-77"))
  }
}
