import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Credential field names are matched ignoring case in every encoding a request carries
/// them in (JSON key, form field, multipart part name, query name, header field), both
/// when redacting and when the leak scan looks for one stored in the clear. A request
/// header that no rule names but that is called like a credential (`X-Api-Token`) is
/// dropped unless a list keeps it, and aliased when one does: before, an allow-list
/// entry stored its value in the clear and lint passed it.
@Suite("Credential names in any case, in every encoding", .timeLimit(.minutes(1)))
struct CredentialNameCaseTests {
  static let secret = "S3cretValue-0123456789"
  static let names = ["Password", "PASSWORD", "ID_TOKEN", "RefreshToken", "OOBCODE", "oobcode"]
  static let boundary = "b0undary"
  static let url = "https://identitytoolkit.googleapis.com/v1/accounts:update"

  enum Place: String, CaseIterable, Sendable { case json, form, multipart, query }

  static func request(_ name: String, in place: Place) -> HTTPRequest {
    switch place {
    case .json:
      HTTPRequest(
        method: .post, url: Fixture.url(url), headerFields: ["Content-Type": "application/json"],
        body: Data(#"{"\#(name)":"\#(secret)"}"#.utf8))
    case .form:
      HTTPRequest(
        method: .post, url: Fixture.url(url),
        headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
        body: Data("\(name)=\(secret)".utf8))
    case .multipart:
      HTTPRequest(
        method: .post, url: Fixture.url(url),
        headerFields: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
        body: Data(multipart(name).utf8))
    case .query:
      HTTPRequest(method: .get, url: Fixture.url("\(url)?\(name)=\(secret)"))
    }
  }

  static func multipart(_ name: String) -> String {
    "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(secret)\r\n"
      + "--\(boundary)--\r\n"
  }

  /// A HAR export holding `request` as it is (not redacted).
  static func export(_ request: HTTPRequest) throws -> Data {
    let entry = HAREntry(
      Interaction(request: request, response: HTTPResponse(status: 200)),
      startedAt: Fixture.clock, order: nil)
    let encoded = try JSONEncoder().encode([
      "log": HARLog(creator: HARCreator(name: "t"), entries: [entry])
    ])
    return encoded
  }

  @Test(
    "redaction replaces the value, whatever the name's case",
    arguments: names, Place.allCases)
  func redacted(name: String, place: Place) {
    for rules in [RedactionRules.firebase, .ncmb, .standard] {
      let redacted = Redactor(rules: rules).redact(Self.request(name, in: place))
      let text = redacted.url.absoluteString + String(decoding: redacted.body, as: UTF8.self)
      #expect(!text.contains(Self.secret), "\(place) \(name): \(text)")
    }
  }

  @Test(
    "lint reports the value stored in the clear, whatever the name's case",
    arguments: names, Place.allCases)
  func reported(name: String, place: Place) throws {
    let findings = CassetteLinter.lint(
      data: try Self.export(Self.request(name, in: place)), file: "x.har")
    #expect(
      findings.contains { $0.kind == .leak && $0.message.contains("is not redacted") },
      "\(place) \(name): \(findings)")
    #expect(!findings.contains { $0.description.contains(Self.secret) })
  }

  static let ruleHeaders = [
    "AUTHORIZATION", "authorization", "X-GOOG-API-KEY", "x-goog-api-key",
    "X-Ncmb-Apps-Session-Token", "X-NCMB-APPLICATION-KEY",
  ]

  @Test(
    "a request header a rule names, in any case: aliased, and reported in the clear",
    arguments: ruleHeaders)
  func ruleNamedHeader(name: String) throws {
    let request = HTTPRequest(
      method: .get, url: Fixture.url(Self.url), headerFields: [name: "Bearer \(Self.secret)"])
    let redacted = Redactor(rules: .standard).redact(request)
    #expect(redacted.headerFields[name] != nil)
    #expect(redacted.headerFields[name]?.contains(Self.secret) == false)
    let findings = CassetteLinter.lint(data: try Self.export(request), file: "x.har")
    #expect(findings.contains { $0.message.contains("is not redacted") }, "\(findings)")
  }

  static let credentialHeaders = ["X-Api-Token", "x-api-token", "X-AUTH-KEY", "X-Session-Id"]

  @Test(
    "a credential-like request header no rule names: dropped, or aliased when kept",
    arguments: credentialHeaders)
  func credentialLikeHeader(name: String) throws {
    let request = HTTPRequest(
      method: .get, url: Fixture.url(Self.url), headerFields: [name: Self.secret])
    // Not listed: dropped.
    #expect(Redactor(rules: .standard).redact(request).headerFields[name] == nil)
    // Listed by a cassette's own rules: kept, but its value is an alias.
    var rules = RedactionRules.standard
    rules.requestHeaderAllowList.append(name.uppercased())
    let kept = Redactor(rules: rules).redact(request).headerFields[name]
    #expect(kept != nil)
    #expect(kept?.contains(Self.secret) == false, "\(kept ?? "")")
    // Stored in the clear: lint reports it.
    let findings = CassetteLinter.lint(data: try Self.export(request), file: "x.har")
    #expect(
      findings.contains {
        $0.location.contains("(\(name))") && $0.message.contains("is not redacted")
      },
      "\(findings)")
  }

  @Test("a harmless request header stays as it is and is not reported")
  func harmlessHeader() throws {
    var rules = RedactionRules.standard
    rules.requestHeaderAllowList.append("X-Request-Id")
    let request = HTTPRequest(
      method: .get, url: Fixture.url(Self.url), headerFields: ["X-Request-Id": "req-42"])
    #expect(Redactor(rules: rules).redact(request).headerFields["X-Request-Id"] == "req-42")
    let findings = CassetteLinter.lint(data: try Self.export(request), file: "x.har")
    #expect(findings.filter { $0.kind == .leak }.isEmpty, "\(findings)")
  }
}
