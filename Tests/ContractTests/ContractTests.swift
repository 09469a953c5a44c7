import Foundation
import Testing
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// The contract suite: every file in `Contracts/` on every harness.
///
/// Each (contract, harness) pair becomes one test case named after the contract and the
/// harness: the fake, both emulators in-process and over loopback HTTP, and both replay
/// harnesses over `Recordings/`.
enum ContractSuite {
  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The repository's `Contracts/` directory.
  static let directory = root.appendingPathComponent("Contracts")

  /// The repository's `Recordings/` directory.
  static let recordings = root.appendingPathComponent("Recordings", isDirectory: true)

  /// The harnesses every contract runs on. `mustRunEverything`: the backend claims every
  /// capability, so a skip is a bug. The others may skip only for a missing capability
  /// (a replay harness without the cassette of an applicable contract fails).
  static let harnesses: [(harness: any ContractHarness, mustRunEverything: Bool)] = [
    (FakeHarness(), true),
    (EmulatorHarness(backend: .firebase), false),
    (EmulatorHarness(backend: .ncmb), false),
    (EmulatorHarness(backend: .firebase, route: .loopback), false),
    (EmulatorHarness(backend: .ncmb, route: .loopback), false),
    (ReplayHarness(backend: .firebase, recordings: recordings), false),
    (ReplayHarness(backend: .ncmb, recordings: recordings), false),
  ]

  /// Contract file names (without `.json`), sorted; loading happens in the test so that
  /// a malformed file fails its own case with the loader's message.
  static let contractNames: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

  /// Every (contract, harness name) pair.
  static let cases: [ContractCase] = contractNames.flatMap { contract in
    harnesses.map { ContractCase(contract: contract, harness: $0.harness.name) }
  }
}

/// One parameter of the suite: a contract file and a harness name.
struct ContractCase: Sendable, CustomTestStringConvertible {
  var contract: String
  var harness: String
  var testDescription: String { "\(contract) on \(harness)" }
}

@Suite struct ContractTests {
  @Test func theSuiteHasContracts() {
    #expect(ContractSuite.contractNames.count >= 24)
  }

  @Test(arguments: ContractSuite.cases)
  func contract(_ testCase: ContractCase) async throws {
    let contract = try ContractLoader.load(
      file: ContractSuite.directory.appendingPathComponent(testCase.contract + ".json"))
    let entry = try #require(ContractSuite.harnesses.first { $0.harness.name == testCase.harness })
    let result = await ContractRunner.run(contract, on: entry.harness)
    switch result.outcome {
    case .passed:
      break
    case .failed(let failure):
      Issue.record("\(testCase.contract) on \(testCase.harness): \(failure)")
    case .skipped(let reason)
    where entry.mustRunEverything || !reason.hasPrefix("missing capability"):
      Issue.record("\(testCase.contract) on \(testCase.harness) was skipped: \(reason)")
    case .skipped(let reason):
      try Test.cancel("skipped: \(reason)")
    }
  }
}
