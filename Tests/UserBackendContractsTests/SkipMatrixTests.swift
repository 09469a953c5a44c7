import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

@Suite(.timeLimit(.minutes(2))) struct SkipMatrixTests {
  /// A backend that drops a capability (here the memory backend losing email sign-in, as
  /// Firebase once lost phone sign-in) skips more contracts: each new skip is a violation.
  @Test func aBackendLosingACapabilityViolatesTheMatrix() async throws {
    let contracts = try ["sign-in", "username-identifier"].map(bundledContract)
    let matrix = SkipMatrix(backends: ["memory": ["username-identifier": ["usernamePassword"]]])
    let healthy = await ContractRunner(
      contracts: contracts,
      harnesses: [MemoryHarness(capabilities: [.emailPassword, .tokenRefresh])]
    ).run()
    #expect(matrix.violations(healthy).isEmpty, "\(matrix.violations(healthy))")

    let degraded = await ContractRunner(
      contracts: contracts, harnesses: [MemoryHarness(capabilities: [.tokenRefresh])]
    ).run()
    #expect(degraded.failedCount == 0)
    #expect(
      matrix.violations(degraded) == [
        "sign-in on memory was skipped (missing capability emailPassword) but skips.json "
          + "does not pin it for memory"
      ])
  }

  @Test func aPinnedContractThatPassesIsAViolation() async throws {
    let contract = try bundledContract("username-identifier")
    let matrix = SkipMatrix(backends: ["memory": ["username-identifier": ["usernamePassword"]]])
    let result = await ContractRunner.run(contract, on: MemoryHarness())
    #expect(result.outcome == .passed)
    #expect(matrix.violation(result)?.contains("passed but skips.json pins it") == true)
  }

  @Test func aSkipForAnotherReasonThanThePinnedOneIsAViolation() {
    let matrix = SkipMatrix(backends: ["ncmb": ["phone-sign-in": ["phoneNumberSignIn"]]])
    let result = ContractResult(
      contract: "phone-sign-in", harness: "ncmb-replay",
      outcome: .skipped(reason: "no SMS code"))
    #expect(matrix.violation(result)?.contains("pins it as \"missing capability") == true)
    let pinned = ContractResult(
      contract: "phone-sign-in", harness: "ncmb-replay",
      outcome: .skipped(reason: "missing capability phoneNumberSignIn"))
    #expect(matrix.violation(pinned) == nil)
  }

  /// A live run (no controllable clock, no view of codes) against a correct server must be
  /// able to succeed: the backend's missing capabilities are named alone, as pinned, and
  /// the environment's own skips are not judged by the matrix (they say nothing about the
  /// backend). Before, the reason was "missing capability tokenRefresh, controllableClock"
  /// and every clock contract was an unpinned skip, so a live run always exited 1.
  @Test func theEnvironmentsOwnSkipsAreNotJudged() async throws {
    let contracts = try [
      "expired-token-refreshed-transparently", "requires-recent-login-then-reauthenticate",
      "email-verification-with-code",
    ].map(bundledContract)
    let matrix = SkipMatrix(
      backends: ["memory": ["expired-token-refreshed-transparently": ["tokenRefresh"]]])
    var capabilities = MemoryBackend(server: MemoryServer(), sessionStore: InMemorySessionStore())
      .capabilities
    capabilities.remove(.tokenRefresh)
    let live = MemoryHarness(
      capabilities: capabilities, controllableClock: false, seesCodes: false)
    let report = await ContractRunner(contracts: contracts, harnesses: [live]).run()
    #expect(report.skippedCount == 3)
    #expect(matrix.violations(report).isEmpty, "\(matrix.violations(report))")
    let reasons = report.results.map(\.outcome)
    #expect(reasons.first == .skipped(reason: "missing capability tokenRefresh"))
    #expect(report.results.map(\.skippedByEnvironment) == [false, true, true])
  }

  @Test func harnessesBelongToTheBackendBeforeTheFirstDash() {
    #expect(SkipMatrix.backend(ofHarness: "firebase-emulator-http") == "firebase")
    #expect(SkipMatrix.backend(ofHarness: "ncmb-replay") == "ncmb")
    #expect(SkipMatrix.backend(ofHarness: "fake") == "fake")
  }

  @Test func theBundledMatrixLoadsAndIsNotAContract() throws {
    let matrix = try SkipMatrix.load(contractsDirectory: contractsDirectory)
    #expect(matrix.pinned(contract: "username-identifier", harness: "firebase-replay") != nil)
    let names = try ContractLoader.load(directory: contractsDirectory).map(\.name)
    #expect(!names.contains("skips"))
  }

  @Test func aMalformedMatrixIsAnErrorNamingTheFile() throws {
    let directory = try directory(with: ["skips.json": #"{"backends": ["ncmb"]}"#])
    #expect {
      try SkipMatrix.load(contractsDirectory: directory)
    } throws: { error in
      "\(error)".contains("skips.json")
    }
  }
}
