import BackendHTTP
import Foundation
import Testing

/// `HTTPRequest.checkSendable()`: the one rule both network transports apply before any
/// connection.
@Suite("A request is checked before it goes on the wire", .timeLimit(.minutes(1)))
struct RequestCheckTests {
  private static let url = URL(string: "https://example.com/v1/x?key=AIzaSECRET")!

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let method: String
    let fields: [(String, String)]
    let body: String
    let url: URL
    let refused: Bool
    var testDescription: String { name }

    init(
      _ name: String, method: String = "POST", fields: [(String, String)] = [], body: String = "",
      url: URL = RequestCheckTests.url, refused: Bool
    ) {
      self.name = name
      self.method = method
      self.fields = fields
      self.body = body
      self.url = url
      self.refused = refused
    }
  }

  static let cases: [Case] = [
    Case("plain POST with JSON", fields: [("Content-Type", "application/json")], refused: false),
    Case("custom token method", method: "PROPFIND", refused: false),
    Case("empty value", fields: [("X-Empty", "")], refused: false),
    Case(
      "matching Content-Length", fields: [("Content-Length", " 3 ")], body: "abc", refused: false),
    Case("ftp URL", url: URL(string: "ftp://example.com/x")!, refused: true),
    Case("user and password in the URL", url: URL(string: "https://u:s3cret@h/x")!, refused: true),
    Case("user in the URL", url: URL(string: "https://s3cret@h/x")!, refused: true),
    Case("file URL", url: URL(fileURLWithPath: "/etc/passwd"), refused: true),
    Case("method with CRLF", method: "GET /a HTTP/1.1\r\nX-Secret: s\r\n\r\nGET", refused: true),
    Case("method with space", method: "PO ST", refused: true),
    Case("empty method", method: "", refused: true),
    Case("field name with colon", fields: [("X-A:b", "1")], refused: true),
    Case("field name with space", fields: [("X A", "1")], refused: true),
    Case("non-ASCII field name", fields: [("X-Ä", "1")], refused: true),
    Case("value with CR LF", fields: [("X-Token", "s3cret\r\nX-Evil: 1")], refused: true),
    Case("value with LF", fields: [("X-Token", "s3cret\nX")], refused: true),
    Case("value with NUL", fields: [("X-Token", "s3cret\0")], refused: true),
    Case("Transfer-Encoding", fields: [("Transfer-Encoding", "chunked")], refused: true),
    Case("short Content-Length", fields: [("content-length", "2")], body: "abc", refused: true),
    Case("non-numeric Content-Length", fields: [("Content-Length", "x")], refused: true),
  ]

  @Test(arguments: cases)
  func rule(_ check: Case) throws {
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: check.method), url: check.url,
      headerFields: HTTPFields(check.fields.map { HTTPFields.Field(name: $0.0, value: $0.1) }),
      body: Data(check.body.utf8))
    do {
      try request.checkSendable()
      #expect(!check.refused, "\(check.name) was accepted")
    } catch {
      #expect(check.refused, "\(check.name) was refused: \(error)")
      guard case .invalidRequest(let reason) = error else {
        Issue.record("not invalidRequest: \(error)")
        return
      }
      // The reason never quotes a value or the URL.
      for secret in ["s3cret", "AIzaSECRET", "X-Secret", "chunked", "/etc/passwd"] {
        #expect(!reason.contains(secret), "\(reason)")
      }
    }
  }
}
