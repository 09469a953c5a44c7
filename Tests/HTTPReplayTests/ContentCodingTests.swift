import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Content codings at the edges: bodies already decoded by the client, raw deflate, and
/// bodies that decode to too much.
@Suite("Content codings", .timeLimit(.minutes(1)))
struct ContentCodingTests {
  static func record(_ response: HTTPResponse) async throws -> HTTPResponse {
    let recorder = RecordingTransport(
      wrapping: StubTransport { _ in response }, backend: "firebase", contract: "coding",
      rules: .firebase, secrets: [], clock: Fixture.clock, seed: 1)
    _ = try await recorder.send(
      HTTPRequest(method: .get, url: Fixture.url("https://identitytoolkit.googleapis.com/v1/x")))
    return try #require(try recorder.cassette(variables: [:]).interactions().first?.response)
  }

  @Test("a body the client already decoded keeps its bytes and loses the stale header")
  func alreadyDecoded() async throws {
    let body = Data(#"{"kind":"ok","refreshToken":"AMf-vBzALREADYdecodedTOKEN_0123456789ab"}"#.utf8)
    let stored = try await Self.record(
      HTTPResponse(
        status: 200,
        headerFields: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        body: body))
    #expect(stored.headerFields["Content-Encoding"] == nil)
    #expect(Fixture.jsonObject(stored.body)["kind"] as? String == "ok")
    #expect(Fixture.jsonObject(stored.body)["refreshToken"] as? String == "<REFRESH_TOKEN_1>")
  }

  @Test("deflate, with or without the zlib wrapper, is decoded")
  func deflateForms() async throws {
    let json = Data(#"{"password":"deflate horse battery"}"#.utf8)
    let wrapped = ContentCoding.encode(json, coding: "deflate")
    // Raw deflate: the zlib stream without its 2-byte header and 4-byte checksum.
    let raw = wrapped.dropFirst(2).dropLast(4)
    for body in [wrapped, Data(raw)] {
      let stored = try await Self.record(
        HTTPResponse(
          status: 200,
          headerFields: ["Content-Type": "application/json", "Content-Encoding": "deflate"],
          body: body))
      #expect(Fixture.jsonObject(stored.body)["password"] as? String == "<PASSWORD_1>")
    }
  }

  @Test("a body that decodes past 10 MiB (a live answer's cap) is refused, not inflated")
  func decompressionBomb() throws {
    let bomb = ContentCoding.encode(Data(count: 17 << 20), coding: "gzip")
    #expect(bomb.count < 1 << 20)
    let har = """
      {"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{
        "startedDateTime":"2026-01-01T00:00:00.000Z","time":1,"cache":{},
        "timings":{"send":0,"wait":0,"receive":0},
        "request":{"method":"GET","url":"https://identitytoolkit.googleapis.com/v1/x",
          "httpVersion":"HTTP/2","cookies":[],"headers":[],"queryString":[],"headersSize":-1,
          "bodySize":0},
        "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/2","cookies":[],
          "headers":[{"name":"Content-Encoding","value":"gzip"}],
          "content":{"size":1,"mimeType":"application/octet-stream","encoding":"base64",
            "text":"\(bomb.base64EncodedString())"},
          "redirectURL":"","headersSize":-1,"bodySize":-1}}]}}
      """
    #expect {
      _ = try HARImporter.importHAR(data: Data(har.utf8), secrets: [])
    } throws: { "\($0)".contains("more than 10 MiB") }
  }

  /// gzip members one after another decode to all of them, as gunzip does: a scan that
  /// stopped after the first missed what the second held.
  @Test("every gzip member is decoded; bytes after the data are refused")
  func multipleMembers() throws {
    let first = ContentCoding.encode(Data(#"{"ok":true}"#.utf8), coding: "gzip")
    let second = ContentCoding.encode(Data(#"{"refreshToken":"AMf-secret"}"#.utf8), coding: "gzip")
    let both = try ContentCoding.inflate(first + second, coding: "gzip")
    #expect(String(decoding: both, as: UTF8.self) == #"{"ok":true}{"refreshToken":"AMf-secret"}"#)
    #expect(throws: ContentCoding.Failure.corrupt("gzip")) {
      try ContentCoding.inflate(first + Data("trailing plain text".utf8), coding: "gzip")
    }
    let deflated = ContentCoding.encode(Data(#"{"ok":true}"#.utf8), coding: "deflate")
    #expect(throws: ContentCoding.Failure.corrupt("deflate")) {
      try ContentCoding.inflate(deflated + Data("junk".utf8), coding: "deflate")
    }
  }
}
