import BackendHTTP
import Foundation
import Testing

@testable import UserBackendTesting

/// The loopback emulator harness gives every request at least two minutes, so a loaded
/// machine's slow emulator handler is not read as a dead server.
@Suite("LoadTolerantTransport", .timeLimit(.minutes(1)))
struct LoadTolerantTransportTests {
  final class Capture: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [TimeInterval?] = []
    var timeouts: [TimeInterval?] { lock.withLock { seen } }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      lock.withLock { seen.append(request.timeout) }
      return HTTPResponse(status: 200, headerFields: [:], body: Data())
    }
  }

  @Test("short and missing timeouts are raised to the minimum; longer ones are kept")
  func raises() async throws {
    let capture = Capture()
    let transport = LoadTolerantTransport(wrapped: capture)
    let url = try #require(URL(string: "http://127.0.0.1:1/x"))
    for timeout in [10, nil, 300] as [TimeInterval?] {
      _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: timeout))
    }
    #expect(capture.timeouts == [120, 120, 300])
  }
}
