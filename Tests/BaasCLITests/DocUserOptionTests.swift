import Foundation
import Testing

/// `--user` is checked with the adapters' one user-ID rule before any request, on both
/// backends (each pointed at a port where nothing listens: a request would be `network`,
/// exit 1).
@Suite("baas doc --user: the shared user-ID rule", .timeLimit(.minutes(10)))
struct DocUserOptionTests {
  static let backends: [String: [String: String]] = [
    "firebase": [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9",
      "FIRESTORE_EMULATOR_HOST": "127.0.0.1:9",
    ],
    "ncmb": [
      "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "app", "NCMB_CLIENT_KEY": "client",
      "NCMB_BASE_URL": "http://127.0.0.1:9",
    ],
  ]

  @Test(
    "an unusable --user is a usage error naming --user, before any request",
    arguments: ["firebase", "ncmb"],
    [
      ["doc", "get", "--user", ".."], ["doc", "get", "--user", "."],
      ["doc", "set", "a=1", "--user", "a/b"], ["doc", "delete", "--user", "a\\b"],
      ["doc", "get", "--user", "a/"], ["doc", "get", "--user", "a\u{1B}[2J"],
    ])
  func unusable(backend: String, arguments: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let environment = try #require(Self.backends[backend])
    let result = try await baas.run(arguments, environment: environment)
    #expect(result.status == 2, "\(arguments): \(result.allOutput)")
    #expect(result.standardError.contains("--user"), "\(result.standardError)")
    #expect(!result.allOutput.contains("network"), "\(result.allOutput)")
  }
}
