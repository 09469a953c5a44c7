import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// Credentials outside the fields the rules name: user information in a request URL
/// (`https://user:password@host/`), a URL fragment (`#access_token=…`, never sent to a
/// server), `Proxy-Authorization`, and cookies (`Cookie`, `Set-Cookie`, the HAR `cookies`
/// lists). Import and recording leave them out; lint reports a cassette that holds them.
@Suite("Credentials in URLs, proxy headers and cookies", .timeLimit(.minutes(1)))
struct CredentialPartsTests {
  static let secret = "HUNTERPASS99x"
  static let hosts = [
    "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=%3CFIREBASE_API_KEY_1%3E",
    "https://mbaas.api.nifcloud.com/2013-09-01/users",
  ]

  /// One way to hide `secret` in an exchange.
  struct Place: Sendable, CustomStringConvertible {
    var description: String
    var url: @Sendable (String) -> String = { $0 }
    var requestHeaders: [[String: String]] = []
    var responseHeaders: [[String: String]] = []
    var requestCookies: [[String: String]] = []
    var responseCookies: [[String: String]] = []
  }

  static let basic = Data("admin:\(secret)".utf8).base64EncodedString()

  static let places: [Place] = [
    Place(
      description: "user and password in the URL",
      url: { $0.replacingOccurrences(of: "https://", with: "https://bob:\(secret)@") }),
    Place(
      description: "user only in the URL",
      url: { $0.replacingOccurrences(of: "https://", with: "https://\(secret)@") }),
    Place(description: "a fragment", url: { $0 + "#access_token=\(secret)" }),
    Place(description: "a bare fragment", url: { $0 + "#\(secret)" }),
    Place(
      description: "Proxy-Authorization",
      requestHeaders: [["name": "Proxy-Authorization", "value": "Basic \(basic)"]]),
    Place(
      description: "proxy-authorization, raw",
      requestHeaders: [["name": "proxy-authorization", "value": secret]]),
    Place(
      description: "Cookie", requestHeaders: [["name": "Cookie", "value": "SID=\(secret)"]]),
    Place(
      description: "Set-Cookie",
      responseHeaders: [["name": "Set-Cookie", "value": "SID=\(secret); HttpOnly"]]),
    Place(
      description: "user information in a redirect's Location",
      responseHeaders: [
        ["name": "Location", "value": "https://bob:\(secret)@example.com/next"]
      ]),
    Place(
      description: "request cookies", requestCookies: [["name": "SID", "value": secret]]),
    Place(
      description: "response cookies", responseCookies: [["name": "SID", "value": secret]]),
  ]

  static func har(_ place: Place, base: String, replay: [String: Any]? = nil) throws -> Data {
    let url = place.url(base)
    let ncmb = base.contains("nifcloud")
    let request: [String: Any] = [
      "method": "POST", "url": url, "httpVersion": "HTTP/1.1",
      "cookies": place.requestCookies,
      "headers": [["name": "Content-Type", "value": "application/json"]]
        + place.requestHeaders,
      "queryString": ncmb ? [] : [["name": "key", "value": "<FIREBASE_API_KEY_1>"]],
      "postData": ["mimeType": "application/json", "text": #"{"email":"a@example.com"}"#],
      "headersSize": -1, "bodySize": -1,
    ]
    let response: [String: Any] = [
      "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
      "cookies": place.responseCookies,
      "headers": [["name": "Content-Type", "value": "application/json"]]
        + place.responseHeaders,
      "content": ["size": 2, "mimeType": "application/json", "text": "{}"],
      "redirectURL": "", "headersSize": -1, "bodySize": -1,
    ]
    var log: [String: Any] = [
      "version": "1.2", "creator": ["name": "Browser", "version": "1"],
      "entries": [
        [
          "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 0, "request": request,
          "response": response, "cache": [:] as [String: Any],
          "timings": ["send": 0, "wait": 0, "receive": 0],
        ] as [String: Any]
      ],
    ]
    if let replay { log["_replay"] = replay }
    return try JSONSerialization.data(withJSONObject: ["log": log], options: [.sortedKeys])
  }

  /// A valid `_replay` block, taken from a cassette this library writes.
  static func replayBlock(backend: String) throws -> [String: Any] {
    let metadata = ReplayMetadata(
      backend: backend, contract: "hand-written", clock: Fixture.clock, seed: 1,
      rules: backend == "ncmb" ? .ncmb : .firebase,
      provenance: Provenance(kind: .documented, recordedAt: Fixture.clock))
    let data = try Cassette(metadata: metadata, entries: []).encoded()
    let object = Fixture.jsonObject(data)
    return try #require((object["log"] as? [String: Any])?["_replay"] as? [String: Any])
  }

  @Test("import leaves it out, for either service", arguments: places)
  func importLeavesOut(_ place: Place) throws {
    for base in Self.hosts {
      let cassette = try HARImporter.importHAR(
        data: try Self.har(place, base: base), secrets: [])
      // Never print the text: it would show the secret.
      let text = String(decoding: try cassette.encoded(), as: UTF8.self)
      let kept = text.contains(Self.secret) || text.contains(Self.basic)
      #expect(!kept, "\(place) kept for \(base)")
      let url = try #require(try cassette.interactions().first?.request.url)
      #expect(url.user == nil && url.password == nil && url.fragment == nil)
      let lint = CassetteLinter.lint(data: try cassette.encoded(), file: "x.har")
      #expect(lint.isEmpty, "\(lint)")
    }
  }

  @Test("lint reports it in a hand-written cassette, without showing it", arguments: places)
  func lintReports(_ place: Place) throws {
    for base in Self.hosts {
      let backend = base.contains("nifcloud") ? "ncmb" : "firebase"
      let data = try Self.har(place, base: base, replay: try Self.replayBlock(backend: backend))
      let findings = CassetteLinter.lint(data: data, file: "x.har")
      #expect(!findings.contains { $0.kind == .schema }, "\(findings)")
      #expect(findings.contains { $0.kind == .leak }, "\(place) not reported for \(backend)")
      #expect(!findings.contains { $0.description.contains(Self.secret) })
    }
  }

  @Test("recording leaves out user information, fragments, proxy credentials and cookies")
  func recordingLeavesOut() async throws {
    let response = HTTPResponse(
      status: 200,
      headerFields: [
        "Content-Type": "application/json", "Set-Cookie": "SID=\(Self.secret); HttpOnly",
      ], body: Data("{}".utf8))
    let recorder = RecordingTransport(
      wrapping: StubTransport { _ in response }, backend: "firebase", contract: "credentials",
      rules: .firebase, secrets: [], clock: Fixture.clock, seed: 1)
    let request = HTTPRequest(
      method: .post,
      url: Fixture.url(
        "https://bob:\(Self.secret)@identitytoolkit.googleapis.com/v1/accounts:signUp"
          + "?key=k#access_token=\(Self.secret)"),
      headerFields: [
        "Content-Type": "application/json", "Proxy-Authorization": "Basic \(Self.basic)",
        "Cookie": "SID=\(Self.secret)",
      ], body: Data("{}".utf8))
    _ = try await recorder.send(request)
    let data = try recorder.cassette(variables: [:]).encoded()
    let text = String(decoding: data, as: UTF8.self)
    let kept = text.contains(Self.secret) || text.contains(Self.basic)
    #expect(!kept, "the cassette holds a credential")
    #expect(CassetteLinter.lint(data: data, file: "x.har").isEmpty)
  }
}

/// A configured secret (`BAAS_PASSWORD`) written as hex or as HTML character references is
/// still the secret: lint and the write-time leak scan find it.
@Suite("Secrets in hex and HTML character references", .timeLimit(.minutes(1)))
struct HexAndHTMLSecretTests {
  static let password = "hunter2-real-pass"

  static func forms() -> [(String, String)] {
    let bytes = Array(password.utf8)
    return [
      ("hex", bytes.map { String(format: "%02x", $0) }.joined()),
      ("HEX", bytes.map { String(format: "%02X", $0) }.joined()),
      ("decimal references", password.unicodeScalars.map { "&#\($0.value);" }.joined()),
      (
        "hex references",
        password.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
      ),
      (
        "HEX references",
        password.unicodeScalars.map { "&#X\(String($0.value, radix: 16, uppercase: true));" }
          .joined()
      ),
    ]
  }

  @Test("lint finds the password in each form")
  func lintFinds() throws {
    for (name, form) in Self.forms() {
      let interaction = Interaction(
        request: HTTPRequest(
          method: .post, url: Fixture.url("https://identitytoolkit.googleapis.com/v1/x"),
          headerFields: ["Content-Type": "application/json"], body: Data("{}".utf8)),
        response: HTTPResponse(
          status: 200, headerFields: ["Content-Type": "application/json"],
          body: Fixture.json(["kind": "x", "blob": form])))
      let data = try Fixture.cassette([interaction]).encoded()
      let findings = CassetteLinter.lint(data: data, file: "x.har", secrets: [Self.password])
      #expect(findings.contains { $0.kind == .leak }, "\(name) not found")
      #expect(LeakScanner.scan(data, secrets: [Self.password]).count > 0, "\(name) not scanned")
    }
  }
}
