import Testing

@testable import BackendEmulator

/// Inputs found by `scripts/fuzz` (target http-head), kept as regression tests, and the
/// other members of their kind.
@Suite("HTTP/1.1 head parser: inputs found by fuzzing", .timeLimit(.minutes(1)))
struct HTTPHeadFuzzRegressionTests {
  /// A bare LF (no CR before it) ends no line: RFC 9112 §2.2 lets a server accept it, but
  /// the parser's rule is CRLF only (as the chunked decoder's), so a head that a CRLF-only
  /// proxy reads as one field is never read here as two. Found by the fuzzer as
  /// `Transfer-Encoding: chunked\t\n`, accepted as chunked.
  @Test(
    "a bare LF anywhere in the head is a 400",
    arguments: [
      "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\t\nExpect: 100-continue",
      "GET / HTTP/1.1\nHost: h",
      "GET / HTTP/1.1\r\nHost: h\nX-A: 1",
      "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\n",
      "GET / HTTP/1.0\n",
      "GET / HTTP/1.1\r\nHost: h\r\n\nX-A: 1",
    ])
  func bareLineFeed(head: String) {
    #expect(throws: HTTPWireError.badRequest("bare LF in the request head")) {
      try HTTPRequestHead.parse(ArraySlice(head.utf8))
    }
  }

  @Test func crlfLinesStillParse() throws {
    let head = try HTTPRequestHead.parse(
      ArraySlice("POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked".utf8))
    #expect(head.framing == .chunked)
    #expect(head.headerFields["Host"] == "h")
  }
}
