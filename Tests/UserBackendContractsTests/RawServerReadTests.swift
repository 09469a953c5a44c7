import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

/// `rawGetDocument` and `{"server": …}`: the environment's own read, past the adapter, and
/// how the contract format keeps it honest.
@Suite(.timeLimit(.minutes(1))) struct RawServerReadTests {
  static func contract(requires: [String], steps: String) -> String {
    let names = requires.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
      {"name": "bad", "description": "d", "requires": [\(names)],
       "variables": {"email": "email"},
       "steps": [{"label": "a", "op": "signUp",
                  "input": {"email": "{{email}}", "password": "secret-1"}},
                 \(steps)]}
      """
  }

  static let allRequirements = ["emailPassword", "userDocuments", "rawServerRequests"]

  private func loadError(_ text: String) throws -> ContractLoadError {
    let dir = try directory(with: ["bad.json": text])
    defer { try? FileManager.default.removeItem(at: dir) }
    return try #require(throws: ContractLoadError.self) { try ContractLoader.load(directory: dir) }
  }

  @Test func aRawReadNeedsTheRequirement() throws {
    let error = try loadError(
      Self.contract(
        requires: ["emailPassword", "userDocuments"],
        steps: #"{"op": "rawGetDocument", "expect": {"server": "served"}}"#))
    #expect(error.keyPath == "steps[1].op", "\(error)")
    #expect(error.description.contains("rawServerRequests"), "\(error)")
  }

  @Test(arguments: [
    #"{"op": "rawGetDocument"}"#, #"{"op": "rawGetDocument", "expect": {"success": true}}"#,
    #"{"op": "rawGetDocument", "expect": {"error": "permissionDenied"}}"#,
  ])
  func aRawReadNeedsAServerExpectation(_ step: String) throws {
    let error = try loadError(Self.contract(requires: Self.allRequirements, steps: step))
    #expect(error.keyPath == "steps[1].expect", "\(error)")
    #expect(error.description.contains("rawGetDocument needs"), "\(error)")
  }

  @Test func aServerExpectationIsOnlyForRawReads() throws {
    let error = try loadError(
      Self.contract(
        requires: Self.allRequirements,
        steps: #"{"op": "getDocument", "expect": {"server": "refused"}}"#))
    #expect(error.description.contains("server is only for rawGetDocument"), "\(error)")
  }

  @Test func aServerExpectationIsRefusedOrServed() throws {
    let error = try loadError(
      Self.contract(
        requires: Self.allRequirements,
        steps: #"{"op": "rawGetDocument", "expect": {"server": "other"}}"#))
    #expect(error.description.contains("\"refused\" or \"served\""), "\(error)")
  }

  @Test func aRawReadNamesAnEarlierUser() throws {
    let error = try loadError(
      Self.contract(
        requires: Self.allRequirements,
        steps: #"{"op": "rawGetDocument", "input": {"user": "z"}, "expect": {"server": "refused"}}"#
      ))
    #expect(error.keyPath == "steps[1].input.user", "\(error)")
  }

  /// An environment that cannot send requests of its own skips the contract with the
  /// pseudo-capability's name, which skips.json pins (the fake).
  @Test func anEnvironmentWithoutRawReadsSkipsWithTheName() async throws {
    let contract = try bundledContract("other-users-document-refused-by-server")
    let result = await ContractRunner.run(contract, on: MemoryHarness(rawReads: false))
    #expect(result.outcome == .skipped(reason: "missing capability rawServerRequests"))
    #expect(!result.skippedByEnvironment)
  }

  /// An environment that claims the capability but answers `nil` fails the step, naming it.
  @Test func anEnvironmentThatCannotReadFailsTheStep() async throws {
    let contract = try bundledContract("other-users-document-refused-by-server")
    var harness = MemoryHarness(rawReads: false)
    harness.capabilities = MemoryBackend(
      server: MemoryServer(flaws: []), sessionStore: InMemorySessionStore()
    ).capabilities.union([Contract.rawServerRequests])
    let result = await ContractRunner.run(contract, on: harness)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.step == 3, "\(failure)")
    #expect(failure.expected.contains("rawServerRequests"), "\(failure)")
  }
}
