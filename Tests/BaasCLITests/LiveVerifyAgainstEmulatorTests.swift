import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `baas verify --backends firebase-live,ncmb-live` against a correct server (the emulator
/// posing as the live service) exits 0. A live run has no controllable clock and cannot
/// read SMS or out-of-band codes, so it skips the contracts needing them; those skips are
/// the environment's, not the backend's, and the skip matrix does not judge them. Before,
/// every such skip was an unpinned skip-matrix violation and a live run always exited 1.
@Suite("baas verify on the live harnesses against baas emulator", .timeLimit(.minutes(5)))
struct LiveVerifyAgainstEmulatorTests {
  @Test("a live run against a correct server exits 0")
  func aLiveRunAgainstACorrectServerSucceeds() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(
      in: baas.home, arguments: ["--password-hash-cost", "1"])
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    let environment = [
      "FIREBASE_API_KEY": "test-api-key", "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
      "NCMB_BASE_URL": "http://127.0.0.1:\(emulator.port)",
      "NCMB_APPLICATION_KEY": emulator.applicationKey, "NCMB_CLIENT_KEY": emulator.clientKey,
    ]
    // Every contract and the real skip matrix. id-token-forced-refresh is among them: over
    // HTTP the emulator's clock does not move between requests, so a forced refresh in the
    // same second as the sign-in returns the same (second-resolution) token; the contract
    // asks for a refresh request on the wire and a token no older than the first, not for
    // different bytes (it was left out here while it did).
    let contracts = baas.home.appendingPathComponent("contracts", isDirectory: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Contracts"), to: contracts)
    let result = try await baas.run(
      [
        "verify", "--backends", "firebase-live,ncmb-live", "--contracts", contracts.path,
        "--recordings", repositoryRoot.appendingPathComponent("Recordings").path,
      ], environment: environment, timeout: 240)
    _ = await emulator.stop()
    stopped = true
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(!result.standardError.contains("skip matrix"), "\(result.allOutput)")
    let summary = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    #expect(summary.contains(" 0 failed"), "\(result.allOutput)")
    // The environment's own skips are still reported, with their reason.
    #expect(
      result.standardOutput.contains("the environment has no controllable clock"),
      "\(result.allOutput)")
  }
}
