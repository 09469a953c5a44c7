#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// An answer whose head no API sends (a header line past what libcurl holds, two
  /// different `Content-Length` fields) is an invalid response named for what it is,
  /// never "connection failed" (the connection worked) or "not valid JSON" (the body was
  /// never framed).
  @Suite("CurlTransport: answer framing and size errors", .timeLimit(.minutes(2)))
  struct CurlAnswerFramingTests {
    func failure(answer: [UInt8]) async throws -> HTTPTransportError? {
      let server = try LoopbackServer(answer: answer)
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
      do {
        _ = try await CurlTransport().send(HTTPRequest(method: .get, url: url, timeout: 20))
        return nil
      } catch let error as HTTPTransportError {
        return error
      }
    }

    @Test("a 2 MB header line is an invalid response about the header, not a connection failure")
    func hugeHeaderLine() async throws {
      let body = #"{"a":1}"#
      let answer =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Big: "
        + String(repeating: "a", count: 2 * 1024 * 1024)
        + "\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
      let error = try #require(try await failure(answer: Array(answer.utf8)))
      #expect(error.caseName == "invalidResponse", "\(error)")
      #expect(error.description.contains("header"), "\(error)")
      #expect(!error.description.contains("connection failed"), "\(error)")
    }

    @Test(
      "Content-Length fields with different values are a framing error",
      arguments: [
        "Content-Length: 7\r\nContent-Length: 2\r\n",
        "Content-Length: 2\r\nContent-Length: 7\r\n",
        "Content-Length: 7, 2\r\n",
      ])
    func conflictingLengths(fields: String) async throws {
      let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(fields)\r\n{\"a\":1}"
      let error = try #require(try await failure(answer: Array(answer.utf8)))
      #expect(error.caseName == "invalidResponse", "\(error)")
      #expect(error.description.contains("Content-Length"), "\(error)")
    }

    @Test("the same Content-Length twice is one framing and is read")
    func repeatedSameLength() async throws {
      let answer = "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
      #expect(try await failure(answer: Array(answer.utf8)) == nil)
    }

    @Test(
      "libcurl's answer-size and framing codes are invalid responses, naming no connection",
      arguments: [27, 23, 100])
    func sizeCodes(code: Int) {
      let mapped = CurlTransport.transportError(forCurlCode: code)
      #expect(mapped.caseName == "invalidResponse", "\(mapped)")
      #expect(!mapped.description.contains("connection failed"), "\(mapped)")
    }
  }
#endif
