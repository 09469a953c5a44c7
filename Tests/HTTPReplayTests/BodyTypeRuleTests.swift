import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// One rule for what a body is: the first `Content-Type` header field, else the HAR's
/// `mimeType`. Before, redaction read only the header and lint read `mimeType` first, so a
/// form typed only in `mimeType` was refused by import rather than redacted, and a body
/// typed one way in the header and another in `mimeType` was read as a form by one and as
/// text by the other; replay matched a stored form typed only in `mimeType` as text.
@Suite("HTTPReplay: one rule for a body's type", .timeLimit(.minutes(1)))
struct BodyTypeRuleTests {
  static let password = "FormOnlyPassw0rd77"
  static let form = "email=a%40example.com&password=\(password)"
  static let formType = "application/x-www-form-urlencoded"

  static func export(headerType: String?, mimeType: String, text: String = form) throws -> Data {
    try HARBuilder.export([
      HARBuilder.entry(
        url: "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
        requestHeaders: headerType.map { [("Content-Type", $0)] } ?? [],
        requestBody: ["mimeType": mimeType, "text": text])
    ])
  }

  @Test("a form typed only in postData.mimeType is imported redacted, not refused")
  func formTypeOnlyInMimeType() throws {
    let data = try Self.export(headerType: nil, mimeType: Self.formType)
    let cassette = try HARImporter.importHAR(data: data, rules: .firebase, secrets: [])
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    #expect(!text.contains(Self.password))
    #expect(text.contains("password=%3CPASSWORD_1%3E"))
    // The type the file declared is now the request's header field, so replay reads it too.
    #expect(cassette.entries.first?.request.headers.contains { $0.name == "Content-Type" } == true)
    // Lint reads the same type: the export's password is an unredacted form field.
    let findings = CassetteLinter.lint(data: data, file: "export.har")
    #expect(findings.contains { $0.location.hasSuffix("postData.text.password") })
    #expect(!findings.contains { $0.message.contains("not JSON, a form or multipart") })
  }

  @Test("header form, mimeType text/plain: lint reads the header, as redaction does")
  func headerFormMimeTypeText() throws {
    let data = try Self.export(headerType: Self.formType, mimeType: "text/plain")
    let findings = CassetteLinter.lint(data: data, file: "export.har")
    #expect(findings.contains { $0.location.hasSuffix("postData.text.password") })
    #expect(!findings.contains { $0.message.contains("not JSON, a form or multipart") })
    let cassette = try HARImporter.importHAR(data: data, rules: .firebase, secrets: [])
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    #expect(!text.contains(Self.password))
  }

  @Test("header text/plain, mimeType form: lint and import both read text (and refuse it)")
  func headerTextMimeTypeForm() throws {
    let data = try Self.export(headerType: "text/plain", mimeType: Self.formType)
    let findings = CassetteLinter.lint(data: data, file: "export.har")
    #expect(findings.contains { $0.message.contains("a text/plain body") })
    #expect(!findings.contains { $0.location.hasSuffix("postData.text.password") })
    #expect(throws: CassetteError.self) {
      _ = try HARImporter.importHAR(data: data, rules: .firebase, secrets: [])
    }
  }

  @Test("replay matches a stored form typed only in mimeType field by field")
  func replayMatchesDeclaredForm() async throws {
    let data = try HARBuilder.cassette([
      HARBuilder.entry(
        requestHeaders: [],
        requestBody: ["mimeType": Self.formType, "text": "b=2&a=1"])
    ])
    let replay = ReplayTransport(cassette: try Cassette.decode(data))
    let live = HTTPRequest(
      method: .post,
      url: Fixture.url("https://identitytoolkit.googleapis.com/v1/accounts:lookup"),
      headerFields: ["Content-Type": Self.formType], body: Data("a=1&b=2".utf8))
    let response = try await replay.send(live)
    #expect(response.status == 200)
  }
}
