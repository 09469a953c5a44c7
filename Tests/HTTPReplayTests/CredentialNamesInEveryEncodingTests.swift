import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Found by an attack on `cassette import` (round 7, S1): credentials under names no rule
/// lists (NCMB's `temporaryPassword`, `oldPassword`, `client_secret`, Firebase's
/// `sessionCookie`) were aliased in a form body and a multipart part but stored in the
/// clear in a JSON body, and `cassette lint` passed them: ``CredentialFieldNames`` was not
/// applied to JSON. The `oobCode` of an `oobLink` (`accounts:sendOobCode` with
/// `returnOobLink` answers no separate `oobCode` member) was stored too: the query of a
/// URL held in a string was not read. One name rule now serves every encoding, when
/// importing (and recording) and when linting.
@Suite("Credential names in every body encoding", .timeLimit(.minutes(1)))
struct CredentialNamesInEveryEncodingTests {
  static let names = ["temporaryPassword", "oldPassword", "client_secret", "sessionCookie"]
  static let secret = "Planted-Secret-4711-xyz"

  /// Where the secret sits: a request body (media type and text) or a response body.
  enum Place: String, CaseIterable, CustomTestStringConvertible {
    case jsonTop, jsonNested, jsonInResponse, jsonInString, form, multipart, multipartJSON
    case urlInJSON, urlInResponse, urlInForm, urlFragmentInJSON

    var testDescription: String { rawValue }

    /// `(request mimeType, request text, response text)` with `name` holding `value`.
    func body(name: String, value: String) -> (String, String, String) {
      let json = "application/json"
      func object(_ object: [String: Any]) -> String {
        String(decoding: Fixture.json(object), as: UTF8.self)
      }
      let link =
        "https://x.firebaseapp.com/__/auth/action?mode=resetPassword&\(name)=\(value)&lang=en"
      switch self {
      case .jsonTop:
        return (json, object(["email": "a@example.com", name: value]), "{}")
      case .jsonNested:
        return (json, object(["data": ["list": [["x": 1, name: value]]]]), "{}")
      case .jsonInResponse:
        return (json, "{}", object(["kind": "k", "user": [name: value]]))
      case .jsonInString:
        return (json, object(["body": object([name: value])]), "{}")
      case .form:
        return ("application/x-www-form-urlencoded", "mode=x&\(name)=\(value)", "{}")
      case .multipart:
        return ("multipart/form-data; boundary=XX", Self.multipart(name, value, type: nil), "{}")
      case .multipartJSON:
        let part = object([name: value])
        return (
          "multipart/form-data; boundary=XX", Self.multipart("data", part, type: json), "{}"
        )
      case .urlInJSON:
        return (json, object(["oobLink": link]), "{}")
      case .urlInResponse:
        return (json, "{}", object(["email": "a@example.com", "oobLink": link]))
      case .urlInForm:
        // As `encodeURIComponent` escapes it: `-`, `_`, `.`, `~` stay.
        let kept = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.~"))
        let escaped = link.addingPercentEncoding(withAllowedCharacters: kept) ?? ""
        return ("application/x-www-form-urlencoded", "continueUrl=\(escaped)", "{}")
      case .urlFragmentInJSON:
        return (json, object(["redirect": "app://cb#token_type=Bearer&\(name)=\(value)"]), "{}")
      }
    }

    static func multipart(_ name: String, _ value: String, type: String?) -> String {
      let headers =
        [#"Content-Disposition: form-data; name="\#(name)""#]
        + (type.map { ["Content-Type: \($0)"] } ?? [])
      return (["--XX"] + headers + ["", value, "--XX--", ""]).joined(separator: "\r\n")
    }
  }

  static func entry(_ place: Place, name: String, value: String) -> HARBuilder.Object {
    let (mimeType, request, response) = place.body(name: name, value: value)
    return HARBuilder.entry(
      requestHeaders: [("Content-Type", mimeType)],
      requestBody: ["mimeType": mimeType, "text": request],
      content: ["size": response.utf8.count, "mimeType": "application/json", "text": response])
  }

  static let cases =
    names.flatMap { name in Place.allCases.map { (name, $0) } }
    + Place.allCases.filter { $0.rawValue.hasPrefix("url") }.map { ("oobCode", $0) }

  @Test("import aliases the credential (Firebase and NCMB rules)", arguments: cases)
  func imported(name: String, place: Place) throws {
    let export = try HARBuilder.export([Self.entry(place, name: name, value: Self.secret)])
    for rules in [RedactionRules.firebase, .ncmb] {
      let cassette = try HARImporter.importHAR(data: export, rules: rules, secrets: [])
      let text = String(decoding: try cassette.encoded(), as: UTF8.self)
      #expect(!text.contains(Self.secret), "\(place) \(name)")
      // The field stays (aliased, not dropped).
      #expect(text.contains(name), "\(place) \(name)")
    }
  }

  @Test("lint reports the credential stored in the clear", arguments: cases)
  func linted(name: String, place: Place) throws {
    let data = try HARBuilder.cassette([Self.entry(place, name: name, value: Self.secret)])
    let findings = CassetteLinter.lint(data: data, file: "x.har").filter { $0.kind == .leak }
    #expect(findings.contains { $0.message.contains("not redacted") }, "\(place) \(findings)")
    #expect(!findings.contains { $0.description.contains(Self.secret) })
  }

  @Test("lint passes the same places holding an alias", arguments: Place.allCases)
  func aliasPasses(place: Place) throws {
    let entries = Self.names.map { Self.entry(place, name: $0, value: "<SECRET_1>") }
    let data = try HARBuilder.cassette(entries)
    let findings = CassetteLinter.lint(data: data, file: "x.har")
    #expect(findings.isEmpty, "\(place) \(findings)")
  }

  @Test("the attack's Firebase export: every planted secret is aliased")
  func attackExport() throws {
    let request: [String: Any] = [
      "email": "a@example.com", "Password": "CapPassword-Secret-2",
      "client_secret": "ClientSecret-Secret-3", "oldPassword": "OldPassword-Secret-7",
      "returnSecureToken": true, "temporaryPassword": "TemporaryPassword-Secret-9",
    ]
    let response: [String: Any] = [
      "idToken": "x", "sessionCookie": "SessCookie-Secret-8",
      "oobLink":
        "https://x.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=OobInLink-Secret-10&apiKey=k",
    ]
    let responseText = String(decoding: Fixture.json(response), as: UTF8.self)
    let entry = HARBuilder.entry(
      url: "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
      requestBody: [
        "mimeType": "application/json",
        "text": String(decoding: Fixture.json(request), as: UTF8.self),
      ],
      content: ["size": 1, "mimeType": "application/json", "text": responseText])
    let cassette = try HARImporter.importHAR(
      data: try HARBuilder.export([entry]), rules: .firebaseImport, secrets: [])
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    #expect(!text.contains("-Secret-"), "\(text)")
    let interaction = try #require(try cassette.interactions().first)
    let sent = Fixture.jsonObject(interaction.request.body)
    #expect(sent["returnSecureToken"] as? Bool == true)
    #expect(sent["email"] as? String == "a@example.com")
    let answered = Fixture.jsonObject(interaction.response.body)
    #expect((answered["oobLink"] as? String)?.contains("?mode=resetPassword&oobCode=%3C") == true)
  }

  @Test("a redirect's Location query is redacted and checked like a request's query")
  func location() throws {
    let target = "app://callback/done?state=s1&client_secret=\(Self.secret)&oobCode=\(Self.secret)"
    let response = HTTPResponse(
      status: 302, headerFields: ["Location": target, "Content-Type": "application/json"],
      body: Data("{}".utf8))
    let stored = Redactor(rules: .firebase).redact(response).headerFields["Location"] ?? ""
    #expect(!stored.contains(Self.secret), "\(stored)")
    #expect(stored.hasPrefix("app://callback/done?state=s1&client_secret=%3C"), "\(stored)")

    let data = try HARBuilder.cassette([
      HARBuilder.entry(
        status: 302, responseHeaders: [("Content-Type", "application/json"), ("Location", target)])
    ])
    let findings = CassetteLinter.lint(data: data, file: "x.har").filter { $0.kind == .leak }
    #expect(
      findings.filter { $0.message.contains("not redacted") }.count == 2, "\(findings)")
  }

  /// Names holding a credential word but no secret, which replay reads: NCMB's error
  /// `code` (Firebase's SMS `code` has its own rule), the OAuth `token_type`.
  @Test("harmless JSON fields stay and pass lint", arguments: [RedactionRules.ncmb, .firebase])
  func harmless(rules: RedactionRules) throws {
    var response: [String: Any] = [
      "error": "No data available.", "token_type": "Bearer", "tokenType": "Bearer",
      "expiresIn": "3600", "returnSecureToken": true, "passwordUpdatedAt": 1_767_225_600,
      "link": "https://example.com/page?mode=verifyEmail&lang=en#section",
    ]
    if rules == .ncmb { response["code"] = "E404001" }
    let text = String(decoding: Fixture.json(response), as: UTF8.self)
    let entry = HARBuilder.entry(
      status: 404, content: ["size": text.utf8.count, "mimeType": "application/json", "text": text])
    // The import ends with the leak scan of the backend's rules: it passes.
    let cassette = try HARImporter.importHAR(
      data: try HARBuilder.export([entry]), rules: rules, secrets: [],
      backend: rules == .ncmb ? "ncmb" : "firebase")
    let interaction = try #require(try cassette.interactions().first)
    let stored = Fixture.jsonObject(interaction.response.body)
    #expect(NSDictionary(dictionary: stored) == NSDictionary(dictionary: response), "\(stored)")
    if rules == .firebase {
      let linted = CassetteLinter.lint(data: try HARBuilder.cassette([entry]), file: "x.har")
      #expect(linted.isEmpty, "\(linted)")
    }
  }
}
