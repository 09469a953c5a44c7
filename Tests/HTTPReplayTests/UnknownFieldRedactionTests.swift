import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Credentials in places no rule was written for: a request header only the app knows
/// (dropped: request headers are allow-listed like response headers), and a known field
/// written in another case (redacted: rule names ignore case).
@Suite("Redaction of unknown headers and fields in another case", .timeLimit(.minutes(1)))
struct UnknownFieldRedactionTests {
  @Test(
    "request headers no rule or list names are dropped; named and listed ones stay",
    arguments: [RedactionRules.firebase, .ncmb, .standard])
  func unknownRequestHeaders(rules: RedactionRules) {
    let request = HTTPRequest(
      method: .post, url: Fixture.url("https://example.com/v1/x"),
      headerFields: [
        "Content-Type": "application/json", "X-Api-Token": "tok-0123456789abcdef",
        "X-Auth": "hunter2-secret", "Accept": "application/json",
        "X-NCMB-Timestamp": "2026-01-01T00:00:00.000Z", "Authorization": "Bearer abc.def",
      ], body: Data("{}".utf8))
    let redacted = Redactor(rules: rules).redact(request)
    let names = Set(redacted.headerFields.map { $0.name.lowercased() })
    #expect(!names.contains("x-api-token"))
    #expect(!names.contains("x-auth"))
    #expect(names.contains("content-type"))
    #expect(names.contains("accept"))
    #expect(names.contains("authorization"))
    #expect(names.contains("x-ncmb-timestamp") == (rules != .firebase))
    #expect(redacted.headerFields["Authorization"]?.contains("abc.def") == false)
  }

  @Test(
    "a JSON, form or query field named by a rule in another case is redacted",
    arguments: ["Password", "PASSWORD", "passWord"])
  func otherCase(name: String) throws {
    let redactor = Redactor(rules: .standard)
    let json = HTTPRequest(
      method: .post, url: Fixture.url("https://example.com/v1/x?KEY=AIzaSy-query-key-123"),
      headerFields: ["Content-Type": "application/json"],
      body: Fixture.json([name: "correct-horse-battery", "RefreshToken": "rt-value-1234567"]))
    let redactedJSON = redactor.redact(json)
    let text = String(decoding: redactedJSON.body, as: UTF8.self)
    #expect(!text.contains("correct-horse-battery"), "\(text)")
    #expect(!text.contains("rt-value-1234567"), "\(text)")
    #expect(!redactedJSON.url.absoluteString.contains("AIzaSy-query-key-123"))

    let form = HTTPRequest(
      method: .post, url: Fixture.url("https://example.com/token"),
      headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Data("\(name)=form-secret-value&Refresh_Token=rt-form-123456".utf8))
    let formText = String(decoding: redactor.redact(form).body, as: UTF8.self)
    #expect(!formText.contains("form-secret-value"), "\(formText)")
    #expect(!formText.contains("rt-form-123456"), "\(formText)")
  }

  @Test("cassette rules without a request header list still decode (older cassettes)")
  func olderRules() throws {
    let data = Data(#"{"requestHeaders":[],"matchHeaders":["Authorization"]}"#.utf8)
    let rules = try JSONDecoder().decode(RedactionRules.self, from: data)
    #expect(rules.requestHeaderAllowList.isEmpty)
    #expect(rules.matchHeaders == ["Authorization"])
  }
}

@Suite("Query parameters and form fields called like a credential", .timeLimit(.minutes(1)))
struct CredentialNamedFieldTests {
  static let named = [
    "Token", "api_key", "oobCode", "sig", "password", "X-Session", "refreshTOKEN", "code",
  ]

  @Test("are aliased on recording though no rule names them", arguments: named)
  func aliased(name: String) {
    let redactor = Redactor(rules: .firebase)
    let request = HTTPRequest(
      method: .post, url: Fixture.url("https://example.com/v1/x?\(name)=QSECRET-123&alt=json"),
      headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Data("\(name)=FSECRET-456&mode=plain".utf8))
    let redacted = redactor.redact(request)
    #expect(!redacted.url.absoluteString.contains("QSECRET-123"), "\(redacted.url)")
    #expect(redacted.url.absoluteString.contains("alt=json"))
    let body = String(decoding: redacted.body, as: UTF8.self)
    #expect(!body.contains("FSECRET-456"), "\(body)")
    #expect(body.contains("mode=plain"))
  }

  @Test("are reported by the leak scan when stored in the clear", arguments: named)
  func reported(name: String) throws {
    let har = """
      {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{
      "startedDateTime":"2026-01-01T00:00:00.000Z","time":0,
      "request":{"method":"GET","url":"https://example.com/v1/x?\(name)=QSECRET-123",
      "httpVersion":"HTTP/1.1","cookies":[],"headers":[],
      "queryString":[{"name":"\(name)","value":"QSECRET-123"}],"headersSize":-1,"bodySize":0},
      "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],
      "headers":[],"content":{"size":0,"mimeType":"application/json","text":""},
      "redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}
      """
    let findings = CassetteLinter.lint(data: Data(har.utf8), file: "x.har", secrets: [])
      .filter { $0.kind == .leak }
    #expect(!findings.isEmpty)
    #expect(!findings.contains { $0.description.contains("QSECRET-123") })
  }
}
