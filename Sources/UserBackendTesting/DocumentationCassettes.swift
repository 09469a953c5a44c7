import Foundation
import UserBackendContracts

/// Cassettes written by hand from the services' documented request/response examples
/// (`Recordings/documentation/<backend>/<contract>.har`, provenance `documented`), so
/// that replay also checks the adapters against the services' documentation, not only
/// against our own emulator. They are never re-recorded (the byte-for-byte re-record test
/// reads only `Recordings/<backend>/`); `baas verify` replays each one.
///
/// NCMB ones are replayed with the documentation's keys at its timestamp and carry the
/// `X-NCMB-Signature` of each request (``ReplayHarness/signatureVariablePrefix``), so a
/// change to the signing code that breaks compatibility fails them.
public enum DocumentationCassettes {
  /// The sub-directory of the recordings.
  public static let directoryName = "documentation"

  /// The documentation's keys: any Firebase API key (cassettes hold only its alias) and
  /// the dummy keys of the NCMB signature documentation (public example values that also
  /// appear in the NCMB SDKs' tests; they protect nothing).
  public static let keys = WireBackend.Keys(
    firebaseAPIKey: "documentation-api-key",
    ncmbApplicationKey: "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56",
    ncmbClientKey: "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75")

  /// `<recordings>/documentation`.
  public static func directory(recordings: URL) -> URL {
    recordings.appendingPathComponent(directoryName, isDirectory: true)
  }

  /// The contracts that have a documentation cassette for `backend`, sorted.
  public static func contractNames(backend: WireBackend, recordings: URL) -> [String] {
    let folder = directory(recordings: recordings).appendingPathComponent(backend.rawValue)
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".har") }.map { String($0.dropLast(4)) }.sorted()
  }

  /// The replay harness over the documentation cassettes of `backend`.
  public static func harness(backend: WireBackend, recordings: URL) -> ReplayHarness {
    ReplayHarness(backend: backend, recordings: directory(recordings: recordings), keys: keys)
  }

  /// Replays the documentation cassettes of `contracts` (those without one are not run);
  /// one result per (backend, contract), the harness named `<backend>-documentation`.
  public static func run(contracts: [Contract], recordings: URL) async -> [ContractResult] {
    var results: [ContractResult] = []
    for backend in WireBackend.allCases {
      let harness = harness(backend: backend, recordings: recordings)
      let documented = Set(contractNames(backend: backend, recordings: recordings))
      for contract in contracts where documented.contains(contract.name) {
        let result = await ContractRunner.run(contract, on: harness)
        results.append(
          ContractResult(
            contract: contract.name, harness: backend.rawValue + "-documentation",
            outcome: result.outcome))
      }
    }
    return results
  }
}
