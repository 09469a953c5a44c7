import BackendEmulator
import BackendHTTP
import Foundation
import Testing

@Suite("EmulatorServer: limits and bad input", .timeLimit(.minutes(2)))
struct EmulatorServerLimitsTests {
  @Test(
    "malformed requests get 400 and the server keeps serving",
    arguments: [
      "GARBAGE\r\n\r\n",
      "GET /x\r\nHost: h\r\n\r\n",
      "GET  /x HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /x HTTP/1.1\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nBad Header: 1\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\n folded: 1\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: a/b\r\n\r\n",
      "GET x HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /a{b} HTTP/1.1\r\nHost: h\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n",
    ])
  func malformed(request: String) async throws {
    let (bad, good) = try await withServer { port in
      let bad = try await rawExchange(port: port, request)
      let good = try await rawExchange(port: port, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
      return (bad, good)
    }
    #expect(bad.status == 400)
    #expect(bad.headers["connection"] == "close")
    #expect(good.status == 200)
    #expect(good.json["rawPath"] as? String == "/ok")
  }

  @Test(
    "unsupported protocol features get their own status",
    arguments: [
      ("GET /x HTTP/2.0\r\nHost: h\r\n\r\n", 505),
      ("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
    ])
  func unsupported(request: String, status: Int) async throws {
    let response = try await withServer { port in try await rawExchange(port: port, request) }
    #expect(response.status == status)
  }

  @Test("a request line longer than 16 KiB gets 431")
  func longRequestLine() async throws {
    let target = "/" + String(repeating: "a", count: 17_000)
    let response = try await withServer { port in
      try await rawExchange(port: port, "GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")
    }
    #expect(response.status == 431)
  }

  @Test("header fields over 16 KiB get 431; just under is served")
  func largeHeaders() async throws {
    let (tooLarge, fits) = try await withServer { port in
      let big = String(repeating: "b", count: 16_400)
      let tooLarge = try await rawExchange(
        port: port, "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: \(big)\r\n\r\n")
      let small = String(repeating: "s", count: 16_000)
      let fits = try await rawExchange(
        port: port, "GET /x HTTP/1.1\r\nHost: h\r\nX-Test: \(small)\r\n\r\n")
      return (tooLarge, fits)
    }
    #expect(tooLarge.status == 431)
    #expect(fits.status == 200)
    #expect((fits.json["xTest"] as? String)?.count == 16_000)
  }

  @Test("a Content-Length over 1 MiB gets 413 without the body being read")
  func largeContentLength() async throws {
    let response = try await withServer { port in
      try await rawExchange(
        port: port, "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n")
    }
    #expect(response.status == 413)
  }

  @Test("exactly 1 MiB of body is accepted")
  func bodyAtLimit() async throws {
    let body = String(repeating: "z", count: 1_048_576)
    let response = try await withServer { port in
      try await rawExchange(
        port: port,
        "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      )
    }
    #expect(response.status == 200)
    #expect((response.json["body"] as? String)?.count == 1_048_576)
  }

  @Test("a chunked body growing over 1 MiB gets 413")
  func largeChunkedBody() async throws {
    let chunk = String(repeating: "c", count: 65_536)
    let response = try await withServer { port in
      try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<17 {
          // The server may answer and stop reading part-way; that is the point.
          guard (try? connection.send("10000\r\n\(chunk)\r\n")) != nil else { break }
        }
        return try connection.readResponse()
      }
    }
    #expect(response.status == 413)
  }

  @Test("a client that sends half a request and stalls does not block another client")
  func slowClientDoesNotBlock() async throws {
    // The request timeout is not what this tests: a loaded machine can take longer than
    // the default 30 s between the two halves (seen at load 20), so it is out of the way.
    let limits = EmulatorServer.Limits(requestTimeout: .seconds(600))
    let (other, stalledResult) = try await withServer(limits: limits) { port in
      let stalled = try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf")
        return connection
      }
      let other = try await rawExchange(port: port, "GET /fast HTTP/1.1\r\nHost: h\r\n\r\n")
      // The stalled client can still finish its request afterwards.
      let stalledResult = try await blocking { () -> RawResponse in
        try stalled.send("-rest!")
        return try stalled.readResponse()
      }
      return (other, stalledResult)
    }
    #expect(other.status == 200)
    #expect(other.json["rawPath"] as? String == "/fast")
    #expect(stalledResult.json["body"] as? String == "half-rest!")
  }

  @Test("a request not completed within the request timeout gets 408")
  func requestTimeout() async throws {
    let limits = EmulatorServer.Limits(requestTimeout: .milliseconds(200))
    let response = try await withServer(limits: limits) { port in
      try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("GET /never HTTP/1.1\r\nHost: h\r\n")
        return try connection.readResponse()
      }
    }
    #expect(response.status == 408)
  }

  @Test("connections beyond maxConnections get 503")
  func connectionCap() async throws {
    let limits = EmulatorServer.Limits(maxConnections: 1)
    let (busy, served) = try await withServer(limits: limits) { port in
      try await blocking {
        let holder = try RawConnection(port: port)
        try holder.send("GET /hold HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = try holder.readResponse()  // now idle and kept alive: it occupies the slot
        let busy = try RawConnection(port: port)
        try? busy.send("GET /busy HTTP/1.1\r\nHost: h\r\n\r\n")
        let busyResponse = try busy.readResponse()
        try holder.send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
        return (busyResponse, try holder.readResponse())
      }
    }
    #expect(busy.status == 503)
    #expect(served.status == 200)
  }
}
