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

/// A 3xx answer is refused for every adapter; only a redirect is called one (`304 Not
/// Modified` sends the client nowhere, so "a redirect" would mislead).
@Suite("sendForBackend: 3xx answers named for what they are", .timeLimit(.minutes(1)))
struct ThreeHundredAnswerTests {
  struct Answering: HTTPTransport {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
  }

  func message(_ response: HTTPResponse) async throws -> String {
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await Answering(response: response).sendForBackend(
        HTTPRequest(method: .get, url: URL(string: "https://example.test/x")!))
    }
    let thrown = try #require(error)
    guard case .server(let status, _, _) = thrown.code else {
      Issue.record("not a server error: \(thrown)")
      return ""
    }
    #expect(status == response.status)
    return thrown.message
  }

  @Test(
    "statuses that send the client elsewhere are redirects", arguments: [301, 302, 303, 307, 308])
  func redirects(status: Int) async throws {
    let text = try await message(HTTPResponse(status: status))
    #expect(text.contains("a redirect"), "\(text)")
  }

  @Test("a 3xx with a Location is a redirect", arguments: [305, 399])
  func locationMakesARedirect(status: Int) async throws {
    let text = try await message(
      HTTPResponse(status: status, headerFields: ["Location": "https://elsewhere.test/"]))
    #expect(text.contains("a redirect"), "\(text)")
  }

  @Test(
    "304 and other 3xx without a Location are not called redirects", arguments: [304, 305, 399])
  func notRedirects(status: Int) async throws {
    let text = try await message(HTTPResponse(status: status))
    #expect(!text.contains("redirect;"), "\(text)")
    #expect(text.contains("\(status)"), "\(text)")
  }
}
