import AdapterSupport
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Transport failures become .network without the URL", .timeLimit(.minutes(2)))
struct TransportFailureTests {
  struct Failing: HTTPTransport {
    let error: any Error & Sendable
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw error }
  }

  static let secretURL = URL(string: "https://example.test/v1/x?key=AIzaSECRETSECRETSECRET")!

  @Test("each kind of failure maps to the portable error", arguments: [0, 1, 2, 3])
  func mapping(kind: Int) async throws {
    let error: any Error & Sendable
    let expected: UserBackendError.Code
    switch kind {
    case 0:
      error = HTTPTransportError.timedOut
      expected = .network(reason: "the request timed out")
    case 1:
      error = CancellationError()
      expected = .network(reason: "the request was cancelled")
    case 2:
      error = UserBackendError(.invalidEmail)
      expected = .invalidEmail
    default:
      error = URLError(.cannotFindHost, userInfo: [NSURLErrorFailingURLErrorKey: Self.secretURL])
      expected = .network(reason: "\(NSURLErrorDomain) error \(URLError.cannotFindHost.rawValue)")
    }
    let thrown = await #expect(throws: UserBackendError.self) {
      _ = try await Failing(error: error).sendForBackend(
        HTTPRequest(method: .get, url: Self.secretURL))
    }
    #expect(thrown?.code == expected)
    #expect(thrown.map { !"\($0)".contains("AIza") } == true)
  }
}
