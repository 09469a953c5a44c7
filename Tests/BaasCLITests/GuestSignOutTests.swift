import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `baas signout` of a guest (anonymous) user would discard an account nobody can sign in
/// to again, with its document: it is refused, naming `baas account link` and `--force`,
/// and the session stays; `--force` signs out and says what was discarded. Every backend.
@Suite("baas signout of a guest account", .timeLimit(.minutes(5)))
struct GuestSignOutTests {
  @Test("refused without --force, then discarded with it", arguments: ["fake", "firebase", "ncmb"])
  func guestSignOut(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    var emulator: RunningEmulator?
    defer { if let emulator { kill(emulator.process.processIdentifier, SIGKILL) } }
    if backend != "fake" {
      let running = try await RunningEmulator.start(in: baas.home)
      emulator = running
      baas.environment = [
        "BAAS_BACKEND": backend,
        "FIREBASE_API_KEY": "test-api-key", "FIREBASE_PROJECT_ID": "demo-project",
        "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(running.port)",
        "NCMB_BASE_URL": "http://127.0.0.1:\(running.port)",
        "NCMB_APPLICATION_KEY": running.applicationKey, "NCMB_CLIENT_KEY": running.clientKey,
      ]
    }
    let signIn = try await baas.run(["signin", "--anonymous"])
    try #require(signIn.status == 0, "\(signIn.allOutput)")

    let refused = try await baas.run(["signout"])
    #expect(refused.status == 1, "\(refused.allOutput)")
    #expect(refused.standardError.contains("baas account link"), "\(refused.allOutput)")
    #expect(refused.standardError.contains("--force"))
    #expect(refused.standardOutput.isEmpty)
    let still = try await baas.run(["whoami", "--json"])
    #expect(still.status == 0, "the guest session stays: \(still.allOutput)")

    let json = try await baas.run(["signout", "--json"])
    #expect(json.status == 1)
    let error = try #require(try json.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidInput")

    let forced = try await baas.run(["signout", "--force"])
    #expect(forced.status == 0, "\(forced.allOutput)")
    #expect(forced.standardError.contains("guest"), "\(forced.allOutput)")
    let gone = try await baas.run(["whoami", "--json"])
    #expect(gone.status == 1)
  }

  @Test("a password user signs out without --force and without a warning")
  func passwordUser() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    let signOut = try await baas.run(["signout"])
    #expect(signOut.status == 0)
    #expect(signOut.standardError.isEmpty, "\(signOut.standardError)")
    let nobody = try await baas.run(["signout", "--force"])
    #expect(nobody.status == 0, "--force with nobody signed in: \(nobody.allOutput)")
  }
}
