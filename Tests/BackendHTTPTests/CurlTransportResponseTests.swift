#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// How ``CurlTransport`` reads answers, from a server that writes exact bytes.
  @Suite("CurlTransport: the answer as received", .timeLimit(.minutes(2)))
  struct CurlTransportResponseTests {
    func send(answer: [UInt8], method: HTTPMethod = .get) async throws -> HTTPResponse {
      let server = try LoopbackServer(answer: answer)
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
      return try await CurlTransport().send(HTTPRequest(method: method, url: url, timeout: 20))
    }

    @Test("response fields come back in the server's order, repeated names kept")
    func orderAndRepeats() async throws {
      let answer =
        "HTTP/1.1 200 OK\r\nX-B: 1\r\nSet-Cookie: a=1\r\nX-A: 2\r\nSet-Cookie: b=2\r\n"
        + "Content-Length: 2\r\n\r\nok"
      let response = try await send(answer: Array(answer.utf8))
      #expect(
        response.headerFields.map(\.name) == [
          "X-B", "Set-Cookie", "X-A", "Set-Cookie", "Content-Length",
        ])
      #expect(response.headerFields.values(for: "set-cookie") == ["a=1", "b=2"])
      #expect(response.body == Data("ok".utf8))
    }

    @Test("an interim 100 Continue answer's fields do not leak into the final answer")
    func interimAnswer() async throws {
      let answer =
        "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
        + "HTTP/1.1 200 OK\r\nX-Final: yes\r\nContent-Length: 2\r\n\r\nok"
      let response = try await send(answer: Array(answer.utf8), method: .post)
      #expect(response.status == 200)
      #expect(response.headerFields["X-Interim"] == nil)
      #expect(response.headerFields["X-Final"] == "yes")
      #expect(response.body == Data("ok".utf8))
    }

    @Test("header bytes that are not UTF-8 are read as ISO 8859-1")
    func latin1() async throws {
      let answer =
        Array("HTTP/1.1 200 OK\r\nX-Latin: caf".utf8) + [0xE9, 0xFF]
        + Array("\r\nX-Plain: ok\r\nContent-Length: 0\r\n\r\n".utf8)
      let response = try await send(answer: answer)
      #expect(response.status == 200)
      #expect(response.headerFields["X-Latin"] == "caf\u{E9}\u{FF}")
      #expect(response.headerFields["X-Plain"] == "ok")
    }

    @Test("a gzip-encoded answer is returned as received, not inflated")
    func gzipNotInflated() async throws {
      // gzip of "hello hello hello".
      let gzip: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 87, 200, 64, 144, 0, 128, 136,
        249, 229, 17, 0, 0, 0,
      ]
      let head =
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(gzip.count)\r\n\r\n"
      let response = try await send(answer: Array(head.utf8) + gzip)
      #expect(response.body == Data(gzip))
      #expect(response.headerFields["Content-Encoding"] == "gzip")
    }

    @Test("trailer fields after a chunked body are not header fields")
    func trailers() async throws {
      let answer =
        "HTTP/1.1 200 OK\r\nX-Head: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "2\r\nok\r\n0\r\nX-Trailer: late\r\nContent-Type: text/evil\r\n\r\n"
      let response = try await send(answer: Array(answer.utf8))
      #expect(response.body == Data("ok".utf8))
      #expect(response.headerFields["X-Head"] == "1")
      #expect(response.headerFields["X-Trailer"] == nil)
      #expect(response.headerFields["Content-Type"] == nil)
    }

    @Test("a server that closes without answering is connectionFailed")
    func closedWithoutAnswer() async throws {
      await #expect {
        _ = try await send(answer: [])
      } throws: { error in
        guard case .connectionFailed = error as? HTTPTransportError else { return false }
        return true
      }
    }
  }
#endif
