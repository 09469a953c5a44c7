import BackendEmulator
import BackendHTTP
import Foundation
import Testing

@Suite("EmulatorServer: requests and connections", .timeLimit(.minutes(3)))
struct EmulatorServerTests {
  @Test("the raw path and query reach the handler exactly as sent")
  func rawTargetIsPreserved() async throws {
    let target = "/2013-09-01/login/?userName=a%21b&where=%7B%22k%22:%22v%22%7D&s"
    let response = try await withServer { port in
      try await rawExchange(
        port: port, "GET \(target) HTTP/1.1\r\nHost: localhost:\(port)\r\nX-Test: yes\r\n\r\n")
    }
    #expect(response.status == 200)
    let echo = response.json
    #expect(echo["rawPath"] as? String == "/2013-09-01/login/")
    #expect(echo["rawQuery"] as? String == "userName=a%21b&where=%7B%22k%22:%22v%22%7D&s")
    #expect((echo["url"] as? String)?.hasPrefix("http://localhost:") == true)
    #expect(echo["xTest"] as? String == "yes")
  }

  @Test("two requests on one keep-alive connection")
  func keepAlive() async throws {
    let (first, second, closed) = try await withServer { port in
      try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("GET /one HTTP/1.1\r\nHost: h\r\n\r\n")
        let first = try connection.readResponse()
        try connection.send(
          "POST /two HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        let second = try connection.readResponse()
        return (first, second, connection.isClosedByServer())
      }
    }
    #expect(first.status == 200)
    #expect(first.headers["connection"] == "keep-alive")
    #expect(first.json["rawPath"] as? String == "/one")
    #expect(second.json["rawPath"] as? String == "/two")
    #expect(second.json["body"] as? String == "hello")
    #expect(second.headers["connection"] == "close")
    #expect(closed)
  }

  @Test("a chunked request body is reassembled")
  func chunkedBody() async throws {
    let request =
      "POST /chunked HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n"
      + "Content-Type: text/plain\r\n\r\n"
      + "5;ext=1\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\nX-Trailer: t\r\n\r\n"
    let response = try await withServer { port in try await rawExchange(port: port, request) }
    #expect(response.status == 200)
    #expect(response.json["body"] as? String == "hello world!")
    #expect(response.json["contentType"] as? String == "text/plain")
  }

  @Test("Expect: 100-continue gets an interim response before the body is sent")
  func expectContinue() async throws {
    let response = try await withServer { port in
      try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send(
          "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        // readResponse skips the 100 only if it arrives; send the body after it.
        let interim = try connection.readInterimStatus()
        try connection.send("abc")
        return (interim, try connection.readResponse())
      }
    }
    #expect(response.0 == 100)
    #expect(response.1.json["body"] as? String == "abc")
  }

  @Test("HTTP/1.0 without Host is served and closed")
  func http10() async throws {
    let response = try await withServer { port in
      try await rawExchange(port: port, "GET /old HTTP/1.0\r\n\r\n")
    }
    #expect(response.status == 200)
    #expect(response.headers["connection"] == "close")
    #expect(response.json["rawPath"] as? String == "/old")
  }

  @Test("the server handles 256 connections at the same time")
  func concurrentConnections() async throws {
    let count = 256
    let gate = Gate()
    let statuses = try await withServer(handler: { request in
      // Every handler waits until all 256 are in flight at once.
      let ok = await gate.wait()
      return HTTPResponse(status: ok ? 200 : 503, body: Data(request.rawPath.utf8))
    }) { port in
      let connections = try await blocking {
        try (0..<count).map { index in
          let connection = try RawConnection(port: port)
          try connection.send("GET /c\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
          return connection
        }
      }
      let arrived = await gate.waitForArrivals(count)
      #expect(arrived)
      await gate.open()
      return try await blocking { try connections.map { try $0.readResponse().status } }
    }
    #expect(statuses.count == count)
    #expect(statuses.allSatisfy { $0 == 200 })
  }

  @Test("stop() lets an in-flight request finish and then refuses new connections")
  func gracefulStop() async throws {
    let gate = Gate()
    let server = EmulatorServer(port: 0) { _ in
      _ = await gate.wait()
      return HTTPResponse(status: 200, body: Data("finished".utf8))
    }
    let port = try server.start()
    let inFlight = Task {
      try await rawExchange(port: port, "GET /slow HTTP/1.1\r\nHost: h\r\n\r\n")
    }
    #expect(await gate.waitForArrivals(1))
    let stopped = Task { await stopOffPool(server) }
    // Release the handler only once stop() has closed the listener.
    let refused = try await blocking { () -> Bool in
      for _ in 0..<500 {
        if (try? RawConnection(port: port)) == nil { return true }
        usleep(10_000)
      }
      return false
    }
    #expect(refused)
    await gate.open()
    let response = try await inFlight.value
    await stopped.value
    #expect(response.status == 200)
    #expect(response.bodyText == "finished")
    #expect(response.headers["connection"] == "close")
    await #expect(throws: RawClientError.self) {
      _ = try await rawExchange(port: port, "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    }
    #expect(server.port == nil)
  }

  @Test("an idle keep-alive connection is closed after the idle timeout")
  func idleTimeout() async throws {
    let limits = EmulatorServer.Limits(idleTimeout: .milliseconds(200))
    let closed = try await withServer(limits: limits) { port in
      try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = try connection.readResponse()
        return connection.isClosedByServer()
      }
    }
    #expect(closed)
  }

  @Test("start() twice and an invalid port are errors")
  func startErrors() throws {
    let server = EmulatorServer(port: 0, handler: echoHandler)
    _ = try server.start()
    defer { stopInBackground(server) }
    #expect(throws: EmulatorServerError.alreadyStarted) { try server.start() }
    let invalid = EmulatorServer(port: 70_000, handler: echoHandler)
    #expect(throws: EmulatorServerError.invalidPort(70_000)) { try invalid.start() }
  }

  @Test("binding a port in use fails with a socket error")
  func portInUse() throws {
    let first = EmulatorServer(port: 0, handler: echoHandler)
    let port = try first.start()
    defer { stopInBackground(first) }
    let second = EmulatorServer(port: port, handler: echoHandler)
    #expect(throws: EmulatorServerError.self) { try second.start() }
  }
}

extension RawConnection {
  /// Reads just a `HTTP/1.1 100 Continue` interim head and returns its status.
  func readInterimStatus() throws -> Int {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while !(bytes.count >= 4 && bytes.suffix(4) == [13, 10, 13, 10]) {
      guard recv(fd, &byte, 1, 0) == 1 else { throw RawClientError.closedEarly(received: 0) }
      bytes.append(byte)
    }
    let line = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    return line.count > 1 ? Int(line[1]) ?? 0 : 0
  }
}
