import Foundation
import Testing

/// On the fake, an account command whose session file names another user than its token
/// (an edited file) is a session error with the session's hint, never the document
/// owner rule's `permissionDenied` and its "own document" hint.
@Suite("baas: account commands with a mixed-up session file", .timeLimit(.minutes(2)))
struct MixedUpSessionCLITests {
  @Test func accountCommandsReportTheSessionNotADocument() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    func signUp(_ email: String) async throws -> String {
      let result = try await baas.run(
        ["signup", "--email", email, "--json"], environment: ["BAAS_PASSWORD": "pw-horse-77"])
      #expect(result.status == 0, "\(result.allOutput)")
      return try #require((try result.json()["user"] as? [String: Any])?["id"] as? String)
    }
    let file = baas.home.appendingPathComponent("fake.session.json")
    let bob = try await signUp("bob@example.com")
    let alice = try await signUp("alice@example.com")
    let original = try String(contentsOf: file, encoding: .utf8)
    let commands: [(arguments: [String], input: String?)] = [
      (["account", "update", "--display-name", "X"], nil),
      (["account", "reload"], nil),
      (["account", "password", "--password-stdin"], "new-horse-88\n"),
    ]
    for command in commands {
      // Bob's user ID with alice's tokens; the file stays owner-only.
      try original.replacingOccurrences(of: alice, with: bob)
        .write(to: file, atomically: false, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      let result = try await baas.run(command.arguments, input: command.input)
      #expect(result.status == 1, "\(command.arguments): \(result.allOutput)")
      #expect(result.standardError.contains("sessionExpired"), "\(result.allOutput)")
      #expect(!result.standardError.contains("document"), "\(result.allOutput)")
      #expect(result.standardError.contains("hint: "), "\(result.allOutput)")
      // The mixed-up session was cleared.
      #expect(try await baas.run(["whoami"]).status == 1)
    }
  }
}
