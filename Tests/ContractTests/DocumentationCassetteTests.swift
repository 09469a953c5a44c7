import Foundation
import Testing
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// The cassettes written from the services' documented examples replay their contracts.
@Suite(.timeLimit(.minutes(2))) struct DocumentationCassetteTests {
  static let cases: [(WireBackend, String)] = WireBackend.allCases.flatMap { backend in
    DocumentationCassettes.contractNames(backend: backend, recordings: ContractSuite.recordings)
      .map { (backend, $0) }
  }

  @Test func bothServicesHaveDocumentationCassettes() {
    for backend in WireBackend.allCases {
      #expect(Self.cases.contains { $0.0 == backend }, "\(backend)")
    }
  }

  @Test(arguments: cases)
  func theDocumentedExchangeReplays(_ backend: WireBackend, _ name: String) async throws {
    let contract = try loadContract(name)
    let harness = DocumentationCassettes.harness(
      backend: backend, recordings: ContractSuite.recordings)
    let cassette = try Data(contentsOf: harness.cassetteURL(for: name))
    #expect(String(decoding: cassette, as: UTF8.self).contains("\"kind\": \"documented\""))
    let result = await ContractRunner.run(contract, on: harness)
    #expect(result.outcome == .passed, "\(result.outcome)")
  }

  /// Replayed with other NCMB keys, the documented signatures no longer match: the
  /// recorded signature is really checked.
  @Test func anNCMBSignatureFromOtherKeysIsRefused() async throws {
    let name = try #require(
      DocumentationCassettes.contractNames(backend: .ncmb, recordings: ContractSuite.recordings)
        .first)
    var keys = DocumentationCassettes.keys
    keys.ncmbApplicationKey = String(repeating: "0", count: 64)
    let harness = ReplayHarness(
      backend: .ncmb,
      recordings: DocumentationCassettes.directory(recordings: ContractSuite.recordings),
      keys: keys)
    let result = await ContractRunner.run(try loadContract(name), on: harness)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.actual.contains("X-NCMB-Signature"), "\(failure)")
  }
}
