import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// The rest of the kind of round 4's H2 ("redaction reads JSON, form-urlencoded, headers
/// and URLs, not other body encodings"): every other way a HAR body can carry a
/// credential. JSON is found by its media type (`; charset=…`, `+json`) or its first byte
/// (`text/plain` holding JSON), base64 bodies are decoded first; a body that is neither
/// JSON, a form nor multipart (XML, `key: value` text, a form sent as `text/plain` or as
/// `application/json`, binary) is refused by import and reported by lint when it names a
/// credential field, and passes when it names none.
@Suite("Other body encodings: redacted when readable, else refused", .timeLimit(.minutes(1)))
struct OtherBodyEncodingTests {
  static let password = "Form0nlyPassw0rd"
  typealias M = MultipartBodyTests

  static let readable: [(String, String, String, String?)] = [
    ("text/plain holding JSON", "text/plain", #"{"password":"\#(password)"}"#, nil),
    (
      "JSON with a charset", "application/json; charset=utf-8", #"{"password":"\#(password)"}"#, nil
    ),
    ("a +json type", "application/vnd.api+json", #"{"password":"\#(password)"}"#, nil),
    (
      "base64 JSON (HAR encoding)", "application/json",
      Data(#"{"password":"\#(password)"}"#.utf8).base64EncodedString(), "base64"
    ),
    (
      "a form with a charset", "application/x-www-form-urlencoded; charset=utf-8",
      "password=\(password)", nil
    ),
  ]

  @Test("JSON and forms under every media type spelling are aliased on import")
  func readableBodies() throws {
    for (name, mimeType, text, encoding) in Self.readable {
      let output = try M.imported(try M.har(mimeType: mimeType, text: text, encoding: encoding))
      #expect(!output.contains(Self.password), "\(name)")
      // A form stores the alias percent-encoded (`%3CPASSWORD_1%3E`).
      #expect(output.contains("PASSWORD_1"), "\(name)")
    }
  }

  static let unreadable: [(String, String, String)] = [
    ("a form sent as text/plain", "text/plain", "grant_type=x&password=\(password)"),
    ("a form whose Content-Type says JSON", "application/json", "password=\(password)"),
    ("XML", "application/xml", "<login><password>\(password)</password></login>"),
    ("key: value text", "text/plain", "Password: \(password)"),
    ("no Content-Type", "", "oobCode \(password)"),
    ("an unknown type", "application/x-custom", "api_key=\(password)"),
  ]

  @Test("a body no reader understands that names a credential is refused, naming the entry")
  func unreadableRequestBodies() throws {
    for (name, mimeType, text) in Self.unreadable {
      let error = #expect(throws: CassetteError.self, "\(name)") {
        _ = try M.imported(try M.har(mimeType: mimeType, text: text))
      }
      let message = error.map(String.init(describing:)) ?? ""
      #expect(message.contains("log.entries[0].request.postData.text"), "\(name): \(message)")
      #expect(message.contains("cannot be redacted field by field"), "\(name): \(message)")
      #expect(!message.contains(Self.password), "\(name)")
    }
  }

  @Test("a response body no reader understands that names a credential is refused")
  func unreadableResponseBody() throws {
    let error = #expect(throws: CassetteError.self) {
      _ = try M.imported(
        try M.har(
          mimeType: "application/json", text: "{}", responseType: "text/plain",
          responseText: "refresh_token=\(Self.password)"))
    }
    let message = error.map(String.init(describing:)) ?? ""
    #expect(message.contains("log.entries[0].response.content.text"), "\(message)")
    #expect(!message.contains(Self.password))
  }

  @Test("a binary body naming a credential is refused")
  func binaryBody() throws {
    var bytes = Data([0xFF, 0xFE, 0x00])
    bytes.append(Data("password=\(Self.password)".utf8))
    #expect(throws: CassetteError.self) {
      _ = try M.imported(
        try M.har(
          mimeType: "application/octet-stream", text: bytes.base64EncodedString(),
          encoding: "base64"))
    }
  }

  @Test("text and unknown bodies that name no credential are imported and lint clean")
  func harmlessBodies() throws {
    for (mimeType, text) in [
      ("text/plain", "Not Found"), ("application/xml", "<a><b>hello</b></a>"),
      ("text/plain", "only an alias: <PASSWORD_1>"),
    ] {
      let output = try M.imported(try M.har(mimeType: mimeType, text: text))
      #expect(try M.storedRequestBody(output) == text)
      let findings = CassetteLinter.lint(data: Data(output.utf8), file: "x.har")
      #expect(findings.isEmpty, "\(mimeType): \(findings)")
    }
  }

  @Test("lint reports a stored text body that names a credential")
  func lintReportsUnreadable() throws {
    let findings = CassetteLinter.lint(
      data: try M.cassette(mimeType: "text/plain", body: "password=\(Self.password)"),
      file: "x.har")
    #expect(findings.contains { $0.message.contains("`password`") }, "\(findings)")
    #expect(!findings.contains { $0.description.contains(Self.password) })
  }
}
