import Foundation
import UserBackendContracts
import UserBackendKit

/// A harness over ``MemoryBackend``; `capabilities` and `clock` can be narrowed to test
/// skipping.
struct MemoryHarness: ContractHarness {
  var name = "memory"
  var flaws: Set<MemoryServer.Flaw> = []
  var capabilities: Set<Capability>? = nil
  var controllableClock = true
  /// Whether the environment reports the server's refresh count (as a wire harness does).
  var countsRefreshes = true
  /// Whether the environment can read out-of-band codes.
  var seesCodes = true
  /// Whether the environment sends reads of its own past the backend (`rawGetDocument`).
  var rawReads = true

  func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let server = MemoryServer(flaws: flaws)
    let probe = MemoryBackend(server: server, sessionStore: InMemorySessionStore())
    return Environment(
      server: server,
      capabilities: capabilities
        ?? probe.capabilities.union(rawReads ? [Contract.rawServerRequests] : []),
      clock: controllableClock ? server.clock : nil, variables: variables,
      countsRefreshes: countsRefreshes, seesCodes: seesCodes, rawReads: rawReads)
  }

  struct Environment: ContractEnvironment {
    let server: MemoryServer
    let capabilities: Set<Capability>
    let clock: ManualClock?
    let variables: [String: String]
    let countsRefreshes: Bool
    let seesCodes: Bool
    let rawReads: Bool
    func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
      MemoryBackend(server: server, sessionStore: sessionStore)
    }
    func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }
    func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? {
      guard seesCodes else { return nil }
      guard let code = server.latestCode(email: email, kind: kind) else {
        throw OutOfBandCodeNotFound(email: email, kind: kind)
      }
      return code
    }
    func finish(passed: Bool) async throws {}
    func tokenRefreshRequests() async -> Int? { countsRefreshes ? server.refreshes : nil }
    /// The memory server's owner rule, read past the backend: the token's subject reads
    /// its own document; anyone else's is refused (served by the `noServerOwnerRule` flaw).
    func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
      guard rawReads else { return nil }
      let subject = (try? JSONWebToken(parsing: bearerToken))?.stringClaim("sub")
      guard subject == userID || server.flaws.contains(.noServerOwnerRule) else {
        return ServerAnswer(kind: .refused, status: 403, code: "PERMISSION_DENIED")
      }
      return ServerAnswer(kind: .served, status: 200)
    }
  }
}
