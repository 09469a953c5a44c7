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

  /// The harnesses every contract runs on. A run may be skipped only when
  /// `Contracts/skips.json` pins it (``SkipMatrix``); a pinned run that passes fails too.
  static let harnesses: [any ContractHarness] = [
    FakeHarness(),
    EmulatorHarness(backend: .firebase),
    EmulatorHarness(backend: .ncmb),
    EmulatorHarness(backend: .firebase, route: .loopback),
    EmulatorHarness(backend: .ncmb, route: .loopback),
    ReplayHarness(backend: .firebase, recordings: recordings),
    ReplayHarness(backend: .ncmb, recordings: recordings),
  ]

  /// Contract file names (without `.json`), sorted; loading happens in the test so that
  /// a malformed file fails its own case with the loader's message.
  static let contractNames: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".json") && $0 != SkipMatrix.fileName }
    .map { String($0.dropLast(5)) }.sorted()

  /// Every (contract, harness name) pair.
  static let cases: [ContractCase] = contractNames.flatMap { contract in
    harnesses.map { ContractCase(contract: contract, harness: $0.name) }
  }
}

/// One parameter of the suite: a contract file and a harness name.
struct ContractCase: Sendable, CustomTestStringConvertible {
  var contract: String
  var harness: String
  var testDescription: String { "\(contract) on \(harness)" }
}

@Suite(.timeLimit(.minutes(5))) struct ContractTests {
  @Test func theSuiteHasContracts() {
    #expect(ContractSuite.contractNames.count >= 24)
  }

  /// Every pinned entry names a contract that exists and a capability the contract
  /// requires, so the file cannot pin something stale.
  @Test func theSkipMatrixNamesRealContractsAndRequirements() throws {
    let matrix = try SkipMatrix.load(contractsDirectory: ContractSuite.directory)
    #expect(!matrix.backends.isEmpty)
    for (backend, pins) in matrix.backends {
      for (name, capabilities) in pins {
        let contract = try ContractLoader.load(
          file: ContractSuite.directory.appendingPathComponent(name + ".json"))
        let required = Set(contract.requires.map(\.rawValue))
        #expect(
          !capabilities.isEmpty && capabilities.allSatisfy(required.contains),
          "\(backend)/\(name) pins \(capabilities), not among \(required.sorted())")
      }
    }
  }

  @Test(arguments: ContractSuite.cases)
  func contract(_ testCase: ContractCase) async throws {
    let contract = try ContractLoader.load(
      file: ContractSuite.directory.appendingPathComponent(testCase.contract + ".json"))
    let matrix = try SkipMatrix.load(contractsDirectory: ContractSuite.directory)
    let harness = try #require(ContractSuite.harnesses.first { $0.name == testCase.harness })
    let result = await ContractRunner.run(contract, on: harness)
    if case .failed(let failure) = result.outcome {
      Issue.record("\(testCase.contract) on \(testCase.harness): \(failure)")
    }
    if case .skipped(let reason) = result.outcome {
      // Printed so that a run's skips can be read off its log by name.
      print("skipped: \(testCase.contract) on \(testCase.harness) (\(reason))")
    }
    if let violation = matrix.violation(result) {
      Issue.record(Comment(rawValue: violation))
    } else if case .skipped(let reason) = result.outcome {
      try Test.cancel("skipped (pinned in Contracts/skips.json): \(reason)")
    }
  }
}
