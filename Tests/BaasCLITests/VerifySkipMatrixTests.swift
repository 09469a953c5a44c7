import Foundation
import Testing
import UserBackendTesting

/// `baas verify` holds every run to the pinned skip matrix (`skips.json` in the contracts
/// directory): a backend that silently loses a capability, or gains one, fails the run.
@Suite("baas verify and the pinned skip matrix", .timeLimit(.minutes(5)))
struct VerifySkipMatrixTests {
  @Test("an unpinned skip fails verify; pinned it passes; a pinned contract that runs fails")
  func unpinnedSkipFails() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("contracts", isDirectory: true)
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    let name = "phone-number-malformed.json"
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Contracts/" + name),
      to: contracts.appendingPathComponent(name))
    let arguments = ["verify", "--contracts", contracts.path, "--backends", "ncmb-emulator"]

    let unpinned = try await baas.run(arguments, timeout: 120)
    #expect(unpinned.status == 1, "\(unpinned.allOutput)")
    #expect(
      unpinned.standardError.contains(
        "phone-number-malformed on ncmb-emulator was skipped (missing capability "
          + "phoneNumberSignIn) but skips.json does not pin it"), "\(unpinned.allOutput)")

    let matrix = contracts.appendingPathComponent("skips.json")
    try Data(
      #"{"backends": {"ncmb": {"phone-number-malformed": ["phoneNumberSignIn"]}}}"#.utf8
    ).write(to: matrix)
    let pinned = try await baas.run(arguments, timeout: 120)
    #expect(pinned.status == 0, "\(pinned.allOutput)")

    try Data(
      #"{"backends": {"firebase": {"phone-number-malformed": ["phoneNumberSignIn"]}}}"#.utf8
    ).write(to: matrix)
    let runs = try await baas.run(
      ["verify", "--contracts", contracts.path, "--backends", "firebase-emulator"], timeout: 120)
    #expect(runs.status == 1, "\(runs.allOutput)")
    #expect(
      runs.standardError.contains("phone-number-malformed on firebase-emulator passed but"),
      "\(runs.allOutput)")
  }
}
