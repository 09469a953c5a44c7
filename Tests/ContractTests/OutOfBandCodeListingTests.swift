import BackendHTTP
import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

@testable import UserBackendTesting

/// The emulator harnesses' reader of the Auth Emulator's `oobCodes` listing.
@Suite(.timeLimit(.minutes(1))) struct OutOfBandCodeListingTests {
  /// Answers every request with one response and remembers the requests.
  final class FixedTransport: HTTPTransport {
    let response: HTTPResponse
    let requests = LockedValue<[HTTPRequest]>([])
    init(status: Int = 200, _ body: String) {
      response = HTTPResponse(status: status, body: Data(body.utf8))
    }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      requests.withLock { $0.append(request) }
      return response
    }
  }

  static let listing = #"""
    {"oobCodes": [
      {"email": "a@example.com", "oobCode": "first", "requestType": "PASSWORD_RESET",
       "oobLink": "http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=first"},
      {"email": "b@example.com", "oobCode": "other-user", "requestType": "PASSWORD_RESET"},
      {"email": "a@example.com", "oobCode": "verify", "requestType": "VERIFY_EMAIL"},
      {"email": "a@example.com", "oobCode": "second", "requestType": "PASSWORD_RESET"}
    ]}
    """#

  private func code(
    _ email: String, _ kind: OutOfBandCodeKind, _ transport: FixedTransport,
    host: String? = nil
  ) async throws -> String {
    try await OutOfBandCodeListing.latestCode(
      email: email, kind: kind, projectID: "demo-project", host: host, transport: transport)
  }

  @Test func theLatestCodeOfTheKindForTheAddress() async throws {
    let transport = FixedTransport(Self.listing)
    #expect(try await code(" A@Example.com", .passwordReset, transport) == "second")
    #expect(try await code("a@example.com", .emailVerification, transport) == "verify")
    let request = try #require(transport.requests.withLock { $0.first })
    #expect(request.method == .get)
    #expect(
      request.url.absoluteString
        == "http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes")
    _ = try await code("a@example.com", .passwordReset, transport, host: "127.0.0.1:4000")
    #expect(
      transport.requests.withLock { $0.last?.url.absoluteString }
        == "http://127.0.0.1:4000/emulator/v1/projects/demo-project/oobCodes")
  }

  @Test func noCodeForTheAddressIsNotFound() async throws {
    await #expect(throws: OutOfBandCodeNotFound(email: "c@example.com", kind: .passwordReset)) {
      try await code("c@example.com", .passwordReset, FixedTransport(Self.listing))
    }
    await #expect(throws: OutOfBandCodeNotFound.self) {
      try await code("b@example.com", .emailVerification, FixedTransport(Self.listing))
    }
  }

  @Test(arguments: [
    (200, #"{"oobCodes": [{"email": "a@example.com", "requestType": "PASSWORD_RESET"}]}"#),
    (200, #"["not", "a", "listing"]"#),
    (404, #"{"error": {"code": 404}}"#),
  ])
  func anAnswerThatIsNotTheListingIsAnError(_ status: Int, _ body: String) async throws {
    await #expect(throws: OutOfBandListingError.self) {
      try await code("a@example.com", .passwordReset, FixedTransport(status: status, body))
    }
  }

  /// The request reaches the emulator's Firebase handler on both wire harnesses (it routes
  /// by path), and an empty listing is "not found", not a failure to read.
  @Test(arguments: WireBackend.allCases)
  func theEmulatorHarnessAsksTheEmulator(_ backend: WireBackend) async throws {
    let contract = try loadContract("password-reset-request")
    let environment = try await EmulatorHarness(backend: backend).makeEnvironment(
      for: contract, variables: ["email": "nobody@example.com"])
    await #expect(throws: OutOfBandCodeNotFound.self) {
      _ = try await environment.outOfBandCode(email: "nobody@example.com", kind: .passwordReset)
    }
    try await environment.finish(passed: false)
  }
}
