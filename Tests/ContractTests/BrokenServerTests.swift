import BackendHTTP
import Foundation
import Testing
import UserBackendContracts
import UserBackendTesting

/// A broken server: requests that `breaks` picks are answered 200 with `body` and never
/// reach the emulator (the attacker's `nologout` proxy, in process). Every other request
/// is forwarded.
struct SwallowingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let body: String
  let breaks: @Sendable (HTTPRequest) -> Bool

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard breaks(request) else { return try await wrapped.send(request) }
    return HTTPResponse(
      status: 200, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
  }
}

/// A server without the owner rule: every Firestore request is sent as the emulator's
/// admin (`Bearer owner`), so any signed-in user reads and writes any user's document.
struct NoOwnerRuleTransport: HTTPTransport {
  let wrapped: any HTTPTransport

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var request = request
    if request.url.path.contains("/documents") {
      request.headerFields["Authorization"] = "Bearer owner"
    }
    return try await wrapped.send(request)
  }
}

/// An NCMB server that keeps every ACL it is sent, widened to read for everyone
/// (`"*": {"read": true}` added): a user object stored as public-read, so any signed-in user
/// reads any user's document. The adapter refuses such an answer itself (documents are
/// owner-only), so only a read sent past the adapter shows the server's fault. The body is
/// rewritten as text: the adapter writes the ACL as `"acl":{"<objectId>":{…}}`, and a
/// JSON round trip would change the document's number kinds.
struct PublicReadACLTransport: HTTPTransport {
  let wrapped: any HTTPTransport

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var request = request
    if request.method == .put, request.url.path.contains("/users/") {
      let body = String(decoding: request.body, as: UTF8.self)
      request.body = Data(
        body.replacingOccurrences(of: #""acl":{"#, with: #""acl":{"*":{"read":true},"#).utf8)
    }
    return try await wrapped.send(request)
  }
}

/// One deliberately broken server and the contract that must catch it.
struct BrokenServer: Sendable, CustomTestStringConvertible {
  var name: String
  var backend: WireBackend
  var contract: String
  /// The 1-based step that must fail.
  var step: Int
  var fault: @Sendable (any HTTPTransport) -> any HTTPTransport

  var testDescription: String { "\(name) caught by \(contract) on \(backend.rawValue)" }
}

/// Mutation tests of the contract suite: each new contract that presents an old
/// credential, and the owner-rule contract, run against the emulator behind a wrapping
/// transport that breaks the server the way a real deployment could be broken. The
/// contract passes on the sound emulator and must fail, at the step that presents the
/// credential (or reads the other user's document), on the broken one. Before these
/// contracts, `baas verify --backends ncmb-live` passed a server whose logout revoked
/// nothing (42 passed, 0 failed).
@Suite(.timeLimit(.minutes(2))) struct BrokenServerTests {
  static let servers: [BrokenServer] = [
    BrokenServer(
      name: "an NCMB logout that revokes nothing", backend: .ncmb,
      contract: "signed-out-token-refused-by-server", step: 5,
      fault: { wrapped in
        SwallowingTransport(wrapped: wrapped, body: "{}") { $0.url.path.hasSuffix("/logout") }
      }),
    BrokenServer(
      name: "an NCMB account deletion that deletes nothing", backend: .ncmb,
      contract: "deleted-account-other-device-signed-out", step: 5,
      fault: { wrapped in
        SwallowingTransport(wrapped: wrapped, body: "{}") { $0.method == "DELETE" }
      }),
    BrokenServer(
      name: "a Firebase account deletion that deletes nothing", backend: .firebase,
      contract: "deleted-account-other-device-signed-out", step: 5,
      fault: { wrapped in
        SwallowingTransport(
          wrapped: wrapped, body: #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#
        ) { $0.url.path.hasSuffix("accounts:delete") }
      }),
    BrokenServer(
      name: "a Firestore without the owner rule", backend: .firebase,
      contract: "other-users-document-is-permission-denied", step: 5,
      fault: { NoOwnerRuleTransport(wrapped: $0) }),
    BrokenServer(
      name: "a Firestore without the owner rule", backend: .firebase,
      contract: "other-users-document-refused-by-server", step: 6,
      fault: { NoOwnerRuleTransport(wrapped: $0) }),
    BrokenServer(
      name: "an NCMB server that stores user objects public-read", backend: .ncmb,
      contract: "other-users-document-refused-by-server", step: 6,
      fault: { PublicReadACLTransport(wrapped: $0) }),
  ]

  @Test(arguments: servers)
  func theBrokenServerFailsTheContract(_ server: BrokenServer) async throws {
    let contract = try loadContract(server.contract)
    let sound = await ContractRunner.run(contract, on: EmulatorHarness(backend: server.backend))
    #expect(sound.outcome == .passed, "\(sound.outcome)")

    var broken = EmulatorHarness(backend: server.backend)
    broken.serverFault = server.fault
    let result = await ContractRunner.run(contract, on: broken)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("\(server.name) was not caught: \(result.outcome)")
      return
    }
    #expect(failure.step == server.step, "\(failure)")
  }

  /// The gap this closes: on NCMB behind a server that stores user objects public-read,
  /// every contract but the one reading past the adapter passes (the adapter refuses
  /// another user's object itself), so the whole suite fails only there.
  @Test func theWholeSuiteFailsOnlyTheRawReadOnAPublicReadNCMBServer() async throws {
    var broken = EmulatorHarness(backend: .ncmb)
    broken.serverFault = { PublicReadACLTransport(wrapped: $0) }
    let contracts = try ContractLoader.load(directory: ContractSuite.directory)
    let report = await ContractRunner(contracts: contracts, harnesses: [broken]).run()
    let failed = report.results.filter { $0.outcome.status == "failed" }.map(\.contract)
    #expect(failed == ["other-users-document-refused-by-server"], "\(report.render(.text))")
  }

  /// The attacker's run: the whole suite on NCMB behind a logout that revokes nothing
  /// fails, and only the contract that presents the signed-out token catches it.
  @Test func theWholeSuiteFailsOnANCMBServerWhoseLogoutRevokesNothing() async throws {
    var broken = EmulatorHarness(backend: .ncmb)
    broken.serverFault = { wrapped in
      SwallowingTransport(wrapped: wrapped, body: "{}") { $0.url.path.hasSuffix("/logout") }
    }
    let contracts = try ContractLoader.load(directory: ContractSuite.directory)
    let report = await ContractRunner(contracts: contracts, harnesses: [broken]).run()
    let failed = report.results.filter { $0.outcome.status == "failed" }.map(\.contract)
    #expect(failed == ["signed-out-token-refused-by-server"], "\(report.render(.text))")
  }
}
