import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// F5 through the tool: `baas emulator --project-id demo-e2e` and `FIREBASE_PROJECT_ID`
/// `demo-other`. Before, `baas signup` created the account and then failed with
/// `malformedResponse`, leaving an account this configuration could never sign in to;
/// now it asks the emulator's project first and refuses with `misconfigured` `projectID`
/// naming both projects, before any request that could create an account.
@Suite("baas signup against an emulator of another project", .timeLimit(.minutes(3)))
struct EmulatorProjectMismatchCLITests {
  @Test func signUpNamesBothProjectsAndCreatesNothing() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(
      in: baas.home, arguments: ["--project-id", "demo-e2e"])
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-other",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let account = uniqueAccount()
    let json = try await baas.run(
      ["signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(json.status == 1, "\(json.allOutput)")
    let error = try #require(try json.json()["error"] as? [String: Any], "\(json.allOutput)")
    #expect(error["code"] as? String == "misconfigured")
    let message = error["message"] as? String ?? ""
    #expect(message.contains("\"demo-other\"") && message.contains("\"demo-e2e\""), "\(message)")

    let human = try await baas.run(
      ["signup", "--email", account.email, "--verbose"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(human.status == 1)
    #expect(human.standardError.contains("misconfigured"), "\(human.allOutput)")
    #expect(human.standardError.contains("hint: check FIREBASE_PROJECT_ID"))
    #expect(!human.standardError.contains("accounts:signUp"), "no sign-up was sent")
    #expect(!human.allOutput.contains(account.password))

    // Nothing was created: with the emulator's project, the address is free.
    let fixed = try await baas.run(
      ["signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password, "FIREBASE_PROJECT_ID": "demo-e2e"])
    #expect(fixed.status == 0, "\(fixed.allOutput)")

    let anonymous = try await baas.run(["signin", "--anonymous", "--json"])
    #expect(anonymous.status == 1, "\(anonymous.allOutput)")
    #expect(
      (try? anonymous.json()["error"] as? [String: Any])?["code"] as? String == "misconfigured")
    stopped = true
    _ = await emulator.stop()
  }
}
