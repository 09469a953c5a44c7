import BackendHTTP
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("URLSessionTransport", .timeLimit(.minutes(2)))
struct URLSessionTransportTests {
  private struct Echo: Decodable {
    var method: String
    var path: String
    var query: String
    var headers: [[String]]
    var body: String
  }

  @Test("a request makes a real round trip over loopback")
  func roundTrip() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = URLSessionTransport()
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/v1/accounts:signUp?key=K1"))
    let request = HTTPRequest(
      method: .post, url: url,
      headerFields: [
        "Content-Type": "application/json", "X-Zulu": "1", "X-Alpha": "2", "X-Mike": "3",
      ],
      body: Data(#"{"email":"a@example.com"}"#.utf8))
    let response = try await transport.send(request)
    #expect(response.status == 201)
    #expect(response.headerFields["x-echo"] == "yes")
    let echo = try JSONDecoder().decode(Echo.self, from: response.body)
    #expect(echo.method == "POST")
    #expect(echo.path == "/v1/accounts:signUp")
    #expect(echo.query == "key=K1")
    #expect(echo.body == #"{"email":"a@example.com"}"#)
    // URLRequest stores fields in a dictionary, so only presence and values survive.
    let received = Dictionary(
      echo.headers.filter { $0.count == 2 }.map { ($0[0].lowercased(), $0[1]) },
      uniquingKeysWith: { first, _ in first })
    #expect(received["x-zulu"] == "1")
    #expect(received["x-alpha"] == "2")
    #expect(received["x-mike"] == "3")
    #expect(received["cookie"] == nil)
    // No compressed answers are asked for (a small gzip body can inflate to gigabytes).
    #expect(received["accept-encoding"] == "identity")
  }

  @Test("cookies set by the server are never sent back")
  func noCookies() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = URLSessionTransport()
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/first"))
    let first = try await transport.send(HTTPRequest(method: .get, url: url))
    #expect(first.headerFields["Set-Cookie"] != nil)
    let second = try await transport.send(HTTPRequest(method: .get, url: url))
    let echo = try JSONDecoder().decode(Echo.self, from: second.body)
    #expect(!echo.headers.contains { $0.first?.lowercased() == "cookie" })
  }

  @Test("a non-2xx status is returned, not thrown")
  func statusIsReturned() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/status/503"))
    let response = try await URLSessionTransport().send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 503)
    #expect(!response.isSuccess)
  }

  @Test("a server that never answers hits the per-request timeout")
  func timeout() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hang?key=SECRETKEY"))
    let transport = URLSessionTransport(defaultTimeout: 60)
    await #expect(throws: HTTPTransportError.timedOut) {
      _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 0.5))
    }
  }

  @Test("cancelling the task throws CancellationError")
  func cancellation() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hang"))
    let transport = URLSessionTransport(defaultTimeout: 60)
    let task = Task { try await transport.send(HTTPRequest(method: .get, url: url)) }
    for _ in 0..<500 where server.acceptedCount == 0 {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(server.acceptedCount > 0)
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }

  @Test("an already-cancelled task sends nothing")
  func cancelledBeforeSending() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    let transport = URLSessionTransport()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await transport.send(HTTPRequest(method: .get, url: url))
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(server.acceptedCount == 0)
  }

  @Test("a refused connection is a connection failure that does not name the URL")
  func refused() async throws {
    let server = try LoopbackServer()
    let port = server.port
    server.stop()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/token?key=AIzaSECRET"))
    do {
      _ = try await URLSessionTransport().send(HTTPRequest(method: .get, url: url, timeout: 5))
      Issue.record("expected a failure")
    } catch let error as HTTPTransportError {
      guard case .connectionFailed = error else {
        Issue.record("expected connectionFailed, got \(error)")
        return
      }
      #expect(!error.description.contains("AIzaSECRET"))
      #expect(!error.description.contains("127.0.0.1"))
    }
  }

  @Test("a non-HTTP URL is rejected before any network use")
  func badScheme() async throws {
    let url = try #require(URL(string: "ftp://example.com/file"))
    await #expect(throws: HTTPTransportError.self) {
      _ = try await URLSessionTransport().send(HTTPRequest(method: .get, url: url))
    }
  }

  @Test(
    "URLError codes map to transport errors",
    arguments: [
      (URLError.Code.timedOut, "timedOut"),
      (.cannotFindHost, "connectionFailed"),
      (.cannotConnectToHost, "connectionFailed"),
      (.networkConnectionLost, "connectionFailed"),
      (.notConnectedToInternet, "connectionFailed"),
      (.secureConnectionFailed, "connectionFailed"),
      (.badServerResponse, "invalidResponse"),
      (.cannotParseResponse, "invalidResponse"),
      (.unsupportedURL, "invalidRequest"),
      (.unknown, "connectionFailed"),
    ])
  func mapping(code: URLError.Code, expected: String) {
    let secretURL = "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=AIzaLEAK"
    let error = URLError(
      code, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: secretURL) as Any])
    let mapped = URLSessionTransport.transportError(for: error)
    let name: String =
      switch mapped {
      case .timedOut: "timedOut"
      case .connectionFailed: "connectionFailed"
      case .invalidResponse: "invalidResponse"
      case .invalidRequest: "invalidRequest"
      case .responseTooLarge: "responseTooLarge"
      }
    #expect(name == expected)
    #expect(!mapped.description.contains("AIzaLEAK"))
    #expect(!mapped.description.contains("identitytoolkit"))
  }
}
