import Testing

@testable import BackendEmulator

/// The header fields the server relies on (the loopback guard reads `Host`; the body
/// framing reads `Content-Length` and `Transfer-Encoding`) must each have one reading:
/// a head that could mean two things is a 400 (RFC 9112 §3.2, §6.3), whatever the
/// HTTP version.
@Suite("HTTP head: one Host, one framing", .timeLimit(.minutes(1)))
struct HTTPHeadHostFieldTests {
  @Test(
    "more than one Host field is a 400, HTTP/1.0 included",
    arguments: [
      "GET /emulator/v1/projects/demo-project/oobCodes HTTP/1.0\r\nHost: 127.0.0.1\r\nHost: evil.com",
      "GET /emulator/v1/projects/demo-project/oobCodes HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.com",
      "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\nhost: 127.0.0.1",
      "GET / HTTP/1.1\r\nHOST: localhost\r\nX-A: 1\r\nHost: localhost",
    ])
  func duplicateHost(head: String) {
    let error = #expect(throws: HTTPWireError.self) {
      try HTTPRequestHead.parse(ArraySlice(head.utf8))
    }
    #expect(error?.status == 400)
  }

  @Test(
    "conflicting framing fields are a 400",
    arguments: [
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6",
      "POST /x HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 6",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 6",
      "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked",
    ])
  func conflictingFraming(head: String) {
    let error = #expect(throws: HTTPWireError.self) {
      try HTTPRequestHead.parse(ArraySlice(head.utf8))
    }
    #expect(error?.status == 400)
  }

  @Test("one Host, and a Content-Length repeated with the same value, still parse")
  func singleReadingsParse() throws {
    let head = try HTTPRequestHead.parse(
      ArraySlice("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 5".utf8))
    #expect(head.framing == .contentLength(5))
    let old = try HTTPRequestHead.parse(ArraySlice("GET / HTTP/1.0\r\nHost: 127.0.0.1".utf8))
    #expect(old.headerFields["Host"] == "127.0.0.1")
    _ = try HTTPRequestHead.parse(ArraySlice("GET / HTTP/1.0".utf8))
  }
}
