#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// What ``CurlTransport`` puts on the wire, seen by the loopback server's echo.
  @Suite("CurlTransport: the request on the wire", .timeLimit(.minutes(2)))
  struct CurlTransportRequestTests {
    struct Echo: Decodable {
      var method: String
      var headers: [[String]]
      var body: String
      var bodyLength: Int

      /// The values sent under `name` (case-insensitive), in order.
      func values(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.map {
          $0.count > 1 ? $0[1] : ""
        }
      }
    }

    func echo(
      _ method: HTTPMethod = .post, fields: HTTPFields = [:], body: Data = Data(),
      path: String = "/echo"
    ) async throws -> Echo {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
      let response = try await CurlTransport().send(
        HTTPRequest(method: method, url: url, headerFields: fields, body: body, timeout: 20))
      #expect(response.status == 201)
      return try JSONDecoder().decode(Echo.self, from: response.body)
    }

    @Test("header fields go out in the request's order, repeated names kept")
    func orderAndRepeats() async throws {
      let fields = HTTPFields([
        .init(name: "X-B", value: "1"), .init(name: "X-A", value: "2"),
        .init(name: "X-B", value: "3"), .init(name: "X-C", value: "4"),
      ])
      let echo = try await echo(fields: fields)
      let sent = echo.headers.filter { $0.first?.hasPrefix("X-") == true }
      #expect(sent == [["X-B", "1"], ["X-A", "2"], ["X-B", "3"], ["X-C", "4"]])
    }

    @Test("a field with an empty value is sent with an empty value, not dropped")
    func emptyValue() async throws {
      let fields = HTTPFields([
        .init(name: "X-Empty", value: ""), .init(name: "X-Blank", value: "  "),
        .init(name: "X-Full", value: "v"),
      ])
      let echo = try await echo(fields: fields)
      #expect(echo.values("X-Empty") == [""])
      #expect(echo.values("X-Blank") == [""])
      #expect(echo.values("X-Full") == ["v"])
    }

    @Test("no Expect: 100-continue, even for a 2 MiB body; the body arrives whole")
    func noExpect() async throws {
      let body = Data(repeating: UInt8(ascii: "a"), count: 2 * 1024 * 1024)
      let echo = try await echo(body: body)
      #expect(echo.values("Expect") == [])
      #expect(echo.bodyLength == body.count)
      #expect(echo.values("Content-Length") == ["\(body.count)"])
    }

    @Test("no Content-Type is added; the request's own is sent once")
    func contentType() async throws {
      let bare = try await echo(body: Data("a=1".utf8))
      #expect(bare.values("Content-Type") == [])
      let typed = try await echo(
        fields: ["Content-Type": "application/json"], body: Data("{}".utf8))
      #expect(typed.values("Content-Type") == ["application/json"])
    }

    @Test("Accept-Encoding: identity when the request names none, else the request's own")
    func acceptEncoding() async throws {
      #expect(try await echo(.get).values("Accept-Encoding") == ["identity"])
      let own = try await echo(.get, fields: ["accept-encoding": "gzip"])
      #expect(own.values("Accept-Encoding") == ["gzip"])
    }

    @Test(
      "a header field that cannot be sent is refused before any connection, value unquoted",
      arguments: [
        ("X-Token", "SECRET\r\nX-Injected: 1"), ("X-Token", "SECRET\nX-Injected: 1"),
        ("X-Token", "SECRET\rX-Injected: 1"), ("X-Token", "SECRET\0tail"),
        ("X-Bad:Name", "SECRET"), ("X Bad", "SECRET"), ("X\tBad", "SECRET"), ("", "SECRET"),
        ("X-Bad\r\nX-Injected", "SECRET"), ("X(Bad)", "SECRET"), ("X-\u{E4}", "SECRET"),
        ("X/Bad", "SECRET"),
      ])
    func unsendableField(name: String, value: String) async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
      let request = HTTPRequest(
        method: .get, url: url, headerFields: HTTPFields([.init(name: name, value: value)]))
      await expectRefusedBeforeConnecting(server, hiding: ["SECRET", "Injected"]) {
        _ = try await CurlTransport().send(request)
      }
    }

    @Test(
      "each method sends its name, its body and a matching Content-Length",
      arguments: ["PUT", "PATCH", "DELETE", "POST", "GET", "OPTIONS"], [true, false])
    func methods(method: String, withBody: Bool) async throws {
      let body = withBody ? Data(#"{"a":1}"#.utf8) : Data()
      let echo = try await echo(HTTPMethod(rawValue: method), body: body)
      #expect(echo.method == method)
      #expect(echo.bodyLength == body.count)
      #expect(echo.body == String(decoding: body, as: UTF8.self))
      let length = echo.values("Content-Length")
      if withBody {
        #expect(length == ["\(body.count)"])
      } else {
        #expect(length == [] || length == ["0"])
      }
    }

    @Test("HEAD is sent as HEAD and its answer has no body")
    func head() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
      let response = try await CurlTransport().send(
        HTTPRequest(method: .head, url: url, timeout: 20))
      #expect(response.status == 201)
      #expect(response.headerFields["X-Method"] == "HEAD")
      #expect(response.body.isEmpty)
    }

    @Test("a body with NUL bytes arrives whole")
    func nulBytes() async throws {
      let body = Data([0x61, 0, 0x62, 0, 0, 0x63, 0])
      let echo = try await echo(body: body)
      #expect(echo.bodyLength == body.count)
      #expect(echo.body == String(decoding: body, as: UTF8.self))
    }

    @Test("an IPv6 literal host is reached (FoundationNetworking's URL loader cannot)")
    func ipv6Literal() async throws {
      let server = try LoopbackServer(ipv6: true)
      defer { server.stop() }
      let url = try #require(URL(string: "http://[::1]:\(server.port)/echo"))
      let response = try await CurlTransport().send(
        HTTPRequest(method: .get, url: url, timeout: 20))
      #expect(response.status == 201)
    }

    @Test(
      "libcurl error codes map to transport errors without a URL",
      arguments: [
        (28, "timedOut"), (6, "connectionFailed"), (7, "connectionFailed"),
        (52, "connectionFailed"), (55, "connectionFailed"), (56, "connectionFailed"),
        (18, "connectionFailed"), (35, "connectionFailed"), (60, "connectionFailed"),
        (8, "invalidResponse"), (1, "invalidRequest"), (3, "invalidRequest"),
        (9999, "connectionFailed"), (-5, "connectionFailed"), (0, "connectionFailed"),
      ])
    func codeMapping(code: Int, expected: String) {
      let mapped = CurlTransport.transportError(forCurlCode: code)
      #expect(mapped.caseName == expected)
      for leak in ["http", "://", "127.0.0.1", "googleapis", "localhost"] {
        #expect(!mapped.description.contains(leak))
      }
      // 56 is also how libcurl reports a header flood or a broken chunk size: the message
      // must not claim only a lost connection.
      if code == 56 { #expect(mapped.description.contains("malformed")) }
    }
  }
#endif
