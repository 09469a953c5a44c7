import AdapterSupport
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// Issue 16 item 6: a server answer is read only up to the transport's limit (10 MiB by
/// default). Before, `URLSessionTransport` returned a 200 MiB answer whole (held in
/// memory) and only the adapters' send path refused it afterwards.
///
/// Not asserted: how far the server got before the caller saw the error. FoundationNetworking
/// keeps reading while its delegate queue catches up, so on loopback at full speed the
/// server may finish sending; the bytes past the limit are dropped, never stored.
@Suite("Answer bodies are bounded while they are read", .timeLimit(.minutes(1)))
struct ResponseSizeLimitTests {
  static let limit = URLSessionTransport.standardMaximumResponseBodyBytes

  func request(_ server: LoopbackServer, _ path: String) throws -> HTTPRequest {
    HTTPRequest(
      method: .get, url: try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)")))
  }

  @Test(
    "an answer over the default limit stops the read and is refused, declared or not",
    arguments: TransportKind.allCases, ["", "/chunked"])
  func overTheLimit(kind: TransportKind, framing: String) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    // 200 MiB: with no bound while reading, the whole answer would be held in memory.
    let size = 200 * 1024 * 1024
    let transport = kind.make()
    await #expect(throws: HTTPTransportError.responseTooLarge(limit: Self.limit)) {
      _ = try await transport.send(try request(server, "/stream/\(size)\(framing)"))
    }
  }

  @Test(
    "an answer of exactly the limit is read whole, declared or not",
    arguments: TransportKind.allCases, ["", "/chunked"])
  func atTheLimit(kind: TransportKind, framing: String) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = kind.make(maximumResponseBodyBytes: 300_000)
    let response = try await transport.send(try request(server, "/stream/300000\(framing)"))
    #expect(response.status == 200)
    #expect(response.body.count == 300_000)
    await #expect(throws: HTTPTransportError.responseTooLarge(limit: 299_999)) {
      _ = try await kind.make(maximumResponseBodyBytes: 299_999)
        .send(try request(server, "/stream/300000\(framing)"))
    }
  }

  @Test(
    "the adapters' send path turns an oversized answer into malformedResponse",
    arguments: TransportKind.allCases)
  func adaptersSeeMalformedResponse(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = kind.make(maximumResponseBodyBytes: 1024)
    await #expect {
      _ = try await transport.sendForBackend(try request(server, "/stream/4096/chunked"))
    } throws: { error in
      guard let error = error as? UserBackendError,
        case .malformedResponse(let reason) = error.code
      else { return false }
      return reason.contains("1024 bytes")
    }
  }

  @Test("a transport keeps serving after refusing an answer", arguments: TransportKind.allCases)
  func usableAfterwards(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = kind.make(maximumResponseBodyBytes: 1024)
    await #expect(throws: HTTPTransportError.responseTooLarge(limit: 1024)) {
      _ = try await transport.send(try request(server, "/stream/1000000"))
    }
    let echo = try await transport.send(try request(server, "/echo"))
    #expect(echo.status == 201)
  }
}

/// Found by review: a huge timeout from a configuration (`NCMBConfiguration.requestTimeout`,
/// `URLSessionTransport(defaultTimeout:)`, a request's own) trapped the process when it
/// became a `Duration` ("Double value cannot be converted"). Timeouts are now cut to one
/// day; NaN and non-positive values mean "the default".
@Suite("Timeouts from outside are clamped", .timeLimit(.minutes(1)))
struct TimeoutClampTests {
  @Test(
    "a huge, infinite or NaN timeout sends the request normally",
    arguments: TransportKind.allCases, [1e300, Double.infinity, Double.nan, -Double.infinity, 0])
  func clamped(kind: TransportKind, seconds: Double) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
    let viaRequest = try await kind.make()
      .send(HTTPRequest(method: .get, url: url, timeout: seconds))
    #expect(viaRequest.status == 201)
    let kept = kind.effectiveDefaultTimeout(seconds)
    #expect(kept > 0 && kept <= 86_400)
    let viaDefault = kind.make(defaultTimeout: seconds)
    #expect(try await viaDefault.send(HTTPRequest(method: .get, url: url)).status == 201)
  }
}
