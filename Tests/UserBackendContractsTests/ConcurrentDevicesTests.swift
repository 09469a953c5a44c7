import Foundation
import Synchronization
import Testing
import UserBackendContracts
import UserBackendKit

/// `concurrent` with `"devices": true` runs each operation on a backend of its own, each
/// signed in as the step's user (a copy of the session), not on the step's backend.
@Suite(.timeLimit(.minutes(1))) struct ConcurrentDevicesTests {
  /// Counts the backends an environment builds.
  private struct CountingHarness: ContractHarness {
    let name = "counting"
    let built = Counter()
    func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
      -> any ContractEnvironment
    {
      Counting(
        base: try await MemoryHarness().makeEnvironment(for: contract, variables: variables),
        built: built)
    }
    struct Counting: ContractEnvironment {
      let base: any ContractEnvironment
      let built: Counter
      var capabilities: Set<Capability> { base.capabilities }
      var clock: ManualClock? { base.clock }
      var variables: [String: String] { base.variables }
      func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
        built.increment()
        return try await base.makeBackend(sessionStore: sessionStore)
      }
      func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }
      func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? { nil }
      func finish(passed: Bool) async throws {}
    }
  }

  private func contract(devices: Bool) throws -> Contract {
    try ContractLoader.decode(
      Data(
        #"""
        {"name": "d", "description": "d", "requires": ["emailPassword"],
         "variables": {"email": "email"},
         "steps": [
          {"label": "new", "op": "signUp",
           "input": {"email": "{{email}}", "password": "correct-horse-7"}},
          {"label": "all", "op": "concurrent",
           "input": {"copies": 3, "devices": DEVICES, "step": {"op": "currentUser"}},
           "expect": {"outcomes": {"success": 3}}},
          {"op": "currentUser", "expect": {"user": {"sameUserAs": "all"}}}]}
        """#.replacingOccurrences(of: "DEVICES", with: devices ? "true" : "false").utf8),
      path: "d")
  }

  @Test(arguments: [(true, 4), (false, 1)])
  func eachDeviceIsABackendSignedInAsTheUser(_ devices: Bool, _ backends: Int) async throws {
    let harness = CountingHarness()
    let result = await ContractRunner.run(try contract(devices: devices), on: harness)
    #expect(result.outcome == .passed, "\(result.outcome)")
    #expect(harness.built.value == backends)
  }
}
