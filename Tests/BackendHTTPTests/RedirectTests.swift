import AdapterSupport
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 16 item 5: redirects are never followed, so credentials never reach another
/// origin, and the adapters' send path refuses a 3xx as a `server` error naming it.
@Suite("Redirects are not followed", .timeLimit(.minutes(1)))
struct RedirectTests {
  @Test(
    "a 3xx to another origin is returned as is and the other origin receives nothing",
    arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
  func notFollowed(kind: TransportKind, status: Int) async throws {
    let server = try LoopbackServer()
    let elsewhere = try LoopbackServer()
    defer {
      server.stop()
      elsewhere.stop()
    }
    let url = try #require(
      URL(string: "http://127.0.0.1:\(server.port)/redirect/\(status)/\(elsewhere.port)"))
    let request = HTTPRequest(
      method: .post, url: url,
      headerFields: [
        "X-NCMB-Apps-Session-Token": "session-SECRET", "X-NCMB-Signature": "sig",
        "X-NCMB-Application-Key": "app",
      ], body: Data("{}".utf8))
    let transport = kind.make()
    let response = try await transport.send(request)
    #expect(response.status == status)
    #expect(elsewhere.acceptedCount == 0)

    await #expect {
      _ = try await transport.sendForBackend(request)
    } throws: { error in
      guard let error = error as? UserBackendError,
        case .server(let code, _, _) = error.code
      else { return false }
      return code == status && error.message.contains("\(status)")
        && !error.message.contains("SECRET")
    }
    #expect(elsewhere.acceptedCount == 0)
  }

  /// A transport that answers every request with one canned response.
  struct Canned: HTTPTransport {
    var response: HTTPResponse
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
  }

  @Test("an answer body over 10 MiB is malformedResponse; 10 MiB exactly is read")
  func oversizedBody() async throws {
    let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:1/x")!)
    let limit = maximumResponseBodyBytes
    #expect(limit == 10 * 1024 * 1024)
    let fits = Canned(response: HTTPResponse(status: 200, body: Data(count: limit)))
    #expect(try await fits.sendForBackend(request).body.count == limit)
    let over = Canned(response: HTTPResponse(status: 200, body: Data(count: limit + 1)))
    await #expect {
      _ = try await over.sendForBackend(request)
    } throws: { error in
      guard case .malformedResponse = (error as? UserBackendError)?.code else { return false }
      return true
    }
  }
}
