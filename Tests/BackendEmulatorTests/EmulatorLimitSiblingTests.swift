import BackendEmulator
import BackendHTTP
import Foundation
import Testing

/// Siblings of the single-case limit tests: every limit is checked at a small configured
/// size, on both sides of the boundary and for each way a body can arrive, and after each
/// refusal a new client is served (a limit must never take the server down). A server
/// without one of the checks (say the Content-Length limit) fails a case here.
@Suite(
  "EmulatorServer: each limit, and the server keeps serving", .serialized, .timeLimit(.minutes(2)))
struct EmulatorLimitSiblingTests {
  static let small = EmulatorServer.Limits(
    maxHeadBytes: 512, maxBodyBytes: 64, requestTimeout: .milliseconds(300))

  /// A request over a limit, the status it must get, and a twin just within the limit.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var over: String
    var status: Int
    var within: String?
    var testDescription: String { name }
  }

  static func post(_ body: String, extraHeaders: String = "") -> String {
    "POST /x HTTP/1.1\r\nHost: h\r\n\(extraHeaders)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
  }

  static func chunked(_ chunks: [String]) -> String {
    "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
      + chunks.map { String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n" }.joined()
      + "0\r\n\r\n"
  }

  static let cases: [Case] = [
    Case(
      name: "Content-Length body over maxBodyBytes (body sent)",
      over: post(String(repeating: "x", count: 65)), status: 413,
      within: post(String(repeating: "x", count: 64))),
    Case(
      name: "Content-Length over maxBodyBytes (no body sent)",
      over: "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 65\r\n\r\n", status: 413),
    Case(
      name: "Content-Length far over maxBodyBytes",
      over: "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999\r\n\r\n", status: 413),
    Case(
      name: "chunked body over maxBodyBytes in one chunk",
      over: chunked([String(repeating: "c", count: 65)]), status: 413,
      within: chunked([String(repeating: "c", count: 64)])),
    Case(
      name: "chunked body over maxBodyBytes across chunks",
      over: chunked(Array(repeating: String(repeating: "c", count: 13), count: 5)), status: 413,
      within: chunked(Array(repeating: String(repeating: "c", count: 16), count: 4))),
    Case(
      name: "request line over maxHeadBytes",
      over: "GET /" + String(repeating: "a", count: 600) + " HTTP/1.1\r\nHost: h\r\n\r\n",
      status: 431,
      within: "GET /" + String(repeating: "a", count: 400) + " HTTP/1.1\r\nHost: h\r\n\r\n"),
    Case(
      name: "one header field over maxHeadBytes",
      over: "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "b", count: 600)
        + "\r\n\r\n",
      status: 431,
      within: "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "b", count: 400)
        + "\r\n\r\n"),
    Case(
      name: "many header fields over maxHeadBytes together",
      over: "GET /x HTTP/1.1\r\nHost: h\r\n"
        + (0..<40).map { "X-F\($0): vvvvvvvvvv\r\n" }.joined() + "\r\n",
      status: 431,
      within: "GET /x HTTP/1.1\r\nHost: h\r\n"
        + (0..<10).map { "X-F\($0): vvvvvvvvvv\r\n" }.joined() + "\r\n"),
  ]

  @Test("over the limit: refused; within: served; then a new client is served", arguments: cases)
  func limit(_ limitCase: Case) async throws {
    let (over, within, after) = try await withServer(limits: Self.small) { port in
      let over = try await rawExchange(port: port, limitCase.over)
      var within: RawResponse?
      if let request = limitCase.within { within = try await rawExchange(port: port, request) }
      let after = try await rawExchange(port: port, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
      return (over, within, after)
    }
    #expect(over.status == limitCase.status)
    #expect(over.headers["connection"] == "close")
    if limitCase.within != nil { #expect(within?.status == 200) }
    #expect(after.status == 200)
    #expect(after.json["rawPath"] as? String == "/ok")
  }

  @Test("after a 408 for a stalled request, a new client is served")
  func servesAfterRequestTimeout() async throws {
    let (stalled, after) = try await withServer(limits: Self.small) { port in
      let stalled = try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf")
        return try connection.readResponse()
      }
      return (stalled, try await rawExchange(port: port, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n"))
    }
    #expect(stalled.status == 408)
    #expect(after.status == 200)
  }

  @Test("after a 503 at maxConnections, a new client is served once a slot is free")
  func servesAfterConnectionCap() async throws {
    let limits = EmulatorServer.Limits(maxConnections: 1)
    let (busy, after) = try await withServer(limits: limits) { port in
      let busy = try await blocking {
        let holder = try RawConnection(port: port)
        try holder.send("GET /hold HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = try holder.readResponse()
        let busy = try RawConnection(port: port)
        try? busy.send("GET /busy HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try busy.readResponse()
        try holder.send("GET /bye HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        _ = try holder.readResponse()
        return response
      }
      // The slot frees when the server closes the holder; retry until it has.
      var after = try await rawExchange(port: port, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
      for _ in 0..<50 where after.status == 503 {
        try await Task.sleep(for: .milliseconds(20))
        after = try await rawExchange(port: port, "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
      }
      return (busy, after)
    }
    #expect(busy.status == 503)
    #expect(after.status == 200)
  }
}
