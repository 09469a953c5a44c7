import BackendHTTP
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The promises every network transport keeps (``URLSessionTransport`` and, on Linux,
/// ``CurlTransport``), each checked against both over loopback.
@Suite("Network transports", .timeLimit(.minutes(2)))
struct NetworkTransportTests {
  struct Echo: Decodable {
    var method: String
    var path: String
    var query: String
    var headers: [[String]]
    var body: String
  }

  @Test("a request makes a real round trip over loopback", arguments: TransportKind.allCases)
  func roundTrip(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = kind.make()
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
    if kind.keepsFieldOrder {
      let names = echo.headers.compactMap(\.first).filter { $0.hasPrefix("X-") }
      #expect(names == ["X-Zulu", "X-Alpha", "X-Mike"])
    }
    // No compressed answers are asked for (a small gzip body can inflate to gigabytes).
    #expect(received["accept-encoding"] == "identity")
  }

  @Test("cookies set by the server are never sent back", arguments: TransportKind.allCases)
  func noCookies(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let transport = kind.make()
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/first"))
    let first = try await transport.send(HTTPRequest(method: .get, url: url))
    #expect(first.headerFields["Set-Cookie"] != nil)
    let second = try await transport.send(HTTPRequest(method: .get, url: url))
    let echo = try JSONDecoder().decode(Echo.self, from: second.body)
    #expect(!echo.headers.contains { $0.first?.lowercased() == "cookie" })
  }

  @Test("a non-2xx status is returned, not thrown", arguments: TransportKind.allCases)
  func statusIsReturned(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/status/503"))
    let response = try await kind.make().send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 503)
    #expect(!response.isSuccess)
  }

  @Test(
    "a server that never answers hits the per-request timeout", arguments: TransportKind.allCases)
  func timeout(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hang?key=SECRETKEY"))
    let transport = kind.make(defaultTimeout: 60)
    await #expect(throws: HTTPTransportError.timedOut) {
      _ = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 0.5))
    }
  }

  @Test("cancelling the task throws CancellationError", arguments: TransportKind.allCases)
  func cancellation(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hang"))
    let transport = kind.make(defaultTimeout: 60)
    let task = Task { try await transport.send(HTTPRequest(method: .get, url: url)) }
    for _ in 0..<500 where server.acceptedCount == 0 {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(server.acceptedCount > 0)
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }

  @Test("an already-cancelled task sends nothing", arguments: TransportKind.allCases)
  func cancelledBeforeSending(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    let transport = kind.make()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await transport.send(HTTPRequest(method: .get, url: url))
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(server.acceptedCount == 0)
  }

  @Test(
    "a refused connection is a connection failure that does not name the URL",
    arguments: TransportKind.allCases)
  func refused(kind: TransportKind) async throws {
    // Reserved, never listening: a stopped server's port was once taken meanwhile by
    // another test's server, which answered (CI, fresh clone of 933394f).
    let refusing = try RefusingPort()
    let url = try #require(
      URL(string: "http://127.0.0.1:\(refusing.port)/v1/token?key=AIzaSECRET"))
    do {
      _ = try await kind.make().send(HTTPRequest(method: .get, url: url, timeout: 5))
      Issue.record("expected a failure")
    } catch let error as HTTPTransportError {
      guard case .connectionFailed = error else {
        Issue.record("expected connectionFailed, got \(error)")
        return
      }
      #expect(!error.description.contains("AIzaSECRET"))
      #expect(!error.description.contains("127.0.0.1"))
    }
    withExtendedLifetime(refusing) {}
  }

  @Test(
    "a non-HTTP URL is rejected before any network use",
    arguments: TransportKind.allCases, ["ftp", "file", "gopher", "ws"])
  func badScheme(kind: TransportKind, scheme: String) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(server.port)/file?key=SECRET"))
    await expectRefusedBeforeConnecting(server, hiding: ["SECRET", "127.0.0.1"]) {
      _ = try await kind.make().send(HTTPRequest(method: .get, url: url))
    }
  }

  @Test(
    "a server that closes the connection without answering is a typed failure without the URL",
    arguments: TransportKind.allCases)
  func closedWithoutAnswer(kind: TransportKind) async throws {
    let server = try LoopbackServer(answer: [])
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x?key=SECRET"))
    await #expect {
      _ = try await kind.make().send(HTTPRequest(method: .get, url: url, timeout: 10))
    } throws: { error in
      guard let error = error as? HTTPTransportError, !error.description.contains("SECRET")
      else { return false }
      switch error {
      case .connectionFailed: return true
      // FoundationNetworking reports it as a bad server response (URLError -1011).
      case .invalidResponse: return kind == .urlSession
      default: return false
      }
    }
  }

  @Test(
    "an answer cut short of its Content-Length is an error, not a truncated success",
    arguments: TransportKind.allCases)
  func shortBody(kind: TransportKind) async throws {
    let answer = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"
    let server = try LoopbackServer(answer: Array(answer.utf8))
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    await #expect {
      _ = try await kind.make().send(HTTPRequest(method: .get, url: url, timeout: 10))
    } throws: { error in
      switch error as? HTTPTransportError {
      case .connectionFailed, .invalidResponse: true
      default: false
      }
    }
  }

  @Test(
    "a reply that is not HTTP is an invalid or failed response, never a bad request",
    arguments: TransportKind.allCases)
  func notHTTP(kind: TransportKind) async throws {
    let server = try LoopbackServer(answer: Array("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8))
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    // Not fixed here: FoundationNetworking reports such a reply as an unsupported URL.
    // Known issues of URLSession are marked intermittent: Apple's loader may not have them.
    await withKnownIssue("URLSession maps a non-HTTP reply to unsupportedURL", isIntermittent: true)
    {
      await #expect {
        _ = try await kind.make().send(HTTPRequest(method: .get, url: url, timeout: 10))
      } throws: { error in
        switch error as? HTTPTransportError {
        case .connectionFailed, .invalidResponse: true
        default: false
        }
      }
    } when: {
      kind == .urlSession
    }
  }

  @Test(
    "a framing field in the request cannot cut its body short or change how it is framed",
    arguments: TransportKind.allCases,
    [
      ("Content-Length", "2"), ("Content-Length", "0"), ("Content-Length", "abc"),
      ("Content-Length", "6"), ("Transfer-Encoding", "chunked"),
      ("Transfer-Encoding", "gzip, chunked"),
    ])
  func ownFramingField(kind: TransportKind, field: (name: String, value: String)) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
    let request = HTTPRequest(
      method: .post, url: url,
      headerFields: HTTPFields([.init(name: field.name, value: field.value)]),
      body: Data("abcdef".utf8), timeout: 10)
    // Both transports check the request first (HTTPRequest.checkSendable()): given its own
    // Content-Length a transport could cut the body short, and given Transfer-Encoding
    // libcurl drops Content-Length and sends chunks, which a server reading by length
    // (like this one) reads as empty.
    await sendWithOwnLength(kind, request)
  }

  private func sendWithOwnLength(_ kind: TransportKind, _ request: HTTPRequest) async {
    do {
      let response = try await kind.make().send(request)
      let echo = try JSONDecoder().decode(Echo.self, from: response.body)
      #expect(echo.body == "abcdef")
      if kind.keepsFieldOrder {
        #expect(echo.headers.filter { $0.first?.lowercased() == "content-length" }.count == 1)
      }
    } catch let error as HTTPTransportError {
      // Refusing the request is also keeping the promise; sending a cut body is not.
      guard case .invalidRequest = error else {
        Issue.record("unexpected \(error)")
        return
      }
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(
    "a method that is not a token is refused before any connection",
    arguments: TransportKind.allCases,
    ["GET /admin HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET", "PO ST", "GET\n", "", "GE\0T"])
  func methodNotAToken(kind: TransportKind, method: String) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
    let request = HTTPRequest(method: HTTPMethod(rawValue: method), url: url, timeout: 10)
    // FoundationNetworking would put any method on the request line; both transports
    // check the request first (HTTPRequest.checkSendable()).
    await expectRefusedBeforeConnecting(server, hiding: ["Injected"]) {
      _ = try await kind.make().send(request)
    }
  }

  @Test(
    "a HEAD answer's declared length over the limit is not a body: the answer is returned",
    arguments: TransportKind.allCases)
  func headWithLargeLength(kind: TransportKind) async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/stream/5000000"))
    let transport = kind.make(maximumResponseBodyBytes: 1000)
    let response = try await transport.send(HTTPRequest(method: .head, url: url, timeout: 10))
    #expect(response.status == 200)
    #expect(response.body.isEmpty)
    #expect(server.bytesStreamed == 0)
  }

  @Test(
    "a 204 or 304 answer's declared length over the limit is not a body: it is returned",
    arguments: TransportKind.allCases, [204, 304])
  func bodylessStatusWithLargeLength(kind: TransportKind, status: Int) async throws {
    let answer = "HTTP/1.1 \(status) Nothing\r\nContent-Length: 5000000\r\nX-Seen: yes\r\n\r\n"
    let server = try LoopbackServer(answer: Array(answer.utf8))
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    let transport = kind.make(maximumResponseBodyBytes: 1000)
    let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 10))
    #expect(response.status == status)
    #expect(response.body.isEmpty)
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
    #expect(mapped.caseName == expected)
    #expect(!mapped.description.contains("AIzaLEAK"))
    #expect(!mapped.description.contains("identitytoolkit"))
  }
}
