import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// Found by an attack on `cassette import` (round 4, H2): a password and an `oobCode` sent
/// as `multipart/form-data` parts were kept, and `cassette lint` passed the result; the
/// same password in a JSON or form body was aliased. Redaction read JSON, forms, headers
/// and URLs, not multipart parts. Import, recording and lint now read parts by name; a
/// body that none of those readers understands is refused when it names a credential.
@Suite("Multipart bodies: parts are redacted and checked by name", .timeLimit(.minutes(1)))
struct MultipartBodyTests {
  static let password = "OnlyHereP4ssword99"
  static let oobCode = "OOBcode1234567890abcdefXYZ"
  static let updateURL = "https://identitytoolkit.googleapis.com/v1/accounts:update"

  static func multipart(boundary: String = "XX", lineBreak: String = "\r\n") -> String {
    [
      "--\(boundary)", #"Content-Disposition: form-data; name="password""#, "", password,
      "--\(boundary)", #"Content-Disposition: form-data; name="oobCode""#, "", oobCode,
      "--\(boundary)", #"Content-Disposition: form-data; name="note""#, "", "hello",
      "--\(boundary)--", "",
    ].joined(separator: lineBreak)
  }

  /// A one-entry HAR export whose request body is `text` sent as `mimeType`.
  static func har(
    mimeType: String, text: String, encoding: String? = nil,
    responseType: String = "application/json", responseText: String = "{}"
  ) throws -> Data {
    var postData: [String: Any] = ["mimeType": mimeType, "text": text]
    if let encoding { postData["encoding"] = encoding }
    let entry: [String: Any] = [
      "startedDateTime": "2026-11-30T12:00:00.000Z", "time": 1,
      "request": [
        "method": "POST", "url": updateURL, "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": [["name": "Content-Type", "value": mimeType]], "queryString": [],
        "headersSize": -1, "bodySize": -1, "postData": postData,
      ],
      "response": [
        "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": [["name": "Content-Type", "value": responseType]],
        "content": ["size": 2, "mimeType": responseType, "text": responseText],
        "redirectURL": "", "headersSize": -1, "bodySize": -1,
      ],
      "cache": [:], "timings": ["send": 0, "wait": 1, "receive": 0],
    ]
    let file: [String: Any] = [
      "log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": [entry]]
    ]
    return try JSONSerialization.data(withJSONObject: file)
  }

  static func imported(_ har: Data) throws -> String {
    let cassette = try HARImporter.importHAR(data: har, rules: .firebase, secrets: [])
    return String(decoding: try cassette.encoded(), as: UTF8.self)
  }

  /// The stored request body of the only entry of `cassette`.
  static func storedRequestBody(_ cassette: String) throws -> String {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(cassette.utf8)) as? [String: Any])
    let log = try #require(object["log"] as? [String: Any])
    let entry = try #require((log["entries"] as? [[String: Any]])?.first)
    let request = try #require(entry["request"] as? [String: Any])
    let postData = try #require(request["postData"] as? [String: Any])
    return try #require(postData["text"] as? String)
  }

  /// Each way a multipart body can arrive: the Content-Type boundary (quoted or not), bare
  /// LF line breaks, a Content-Type that is not multipart (the body's first line decides).
  static let framings: [(String, String, String)] = [
    ("CRLF", "multipart/form-data; boundary=XX", multipart()),
    ("quoted boundary", #"multipart/form-data; boundary="a b:c""#, multipart(boundary: "a b:c")),
    ("bare LF", "multipart/form-data; boundary=XX", multipart(lineBreak: "\n")),
    ("Content-Type says JSON", "application/json", multipart()),
    ("Content-Type says text", "text/plain", multipart()),
    ("wrong boundary in Content-Type", "multipart/form-data; boundary=YY", multipart()),
  ]

  @Test("import aliases rule-named and credential-named parts, other bytes unchanged")
  func importRedactsParts() throws {
    for (name, mimeType, body) in Self.framings {
      let output = try Self.imported(try Self.har(mimeType: mimeType, text: body))
      #expect(!output.contains(Self.password), "\(name)")
      #expect(!output.contains(Self.oobCode), "\(name)")
      let expected =
        body
        .replacingOccurrences(of: Self.password, with: "<PASSWORD_1>")
        .replacingOccurrences(of: Self.oobCode, with: "<OOB_CODE_1>")
      #expect(try Self.storedRequestBody(output) == expected, "\(name)")
    }
  }

  @Test("a base64 multipart body (HAR `encoding`) is decoded, then redacted by part")
  func base64Body() throws {
    let body = Data(Self.multipart().utf8).base64EncodedString()
    let output = try Self.imported(
      try Self.har(mimeType: "multipart/form-data; boundary=XX", text: body, encoding: "base64"))
    #expect(!output.contains(Self.password))
    #expect(!output.contains(Self.oobCode))
    #expect(!output.contains(body))
  }

  @Test("the attack's secrets2.har shape: both parts aliased, the form entry too")
  func attackShape() throws {
    let output = try Self.imported(
      try Self.har(mimeType: "multipart/form-data; boundary=XX", text: Self.multipart()))
    #expect(output.contains("<PASSWORD_1>"))
    #expect(output.contains("<OOB_CODE_1>"))
  }

  @Test("recording redacts multipart parts, with a part's own JSON read as JSON")
  func recordingRedactor() throws {
    let body =
      "--b1\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(Self.password)\r\n"
      + "--b1\r\nContent-Disposition: form-data; name=\"meta\"\r\n"
      + "Content-Type: application/json\r\n\r\n{\"refreshToken\":\"r-\(Self.oobCode)\"}\r\n"
      + "--b1\r\nContent-Disposition: form-data; name=\"api_key\"; filename=\"k.txt\"\r\n\r\n"
      + "k-\(Self.oobCode)\r\n--b1--\r\n"
    let request = HTTPRequest(
      method: .post, url: Fixture.url(Self.updateURL),
      headerFields: ["Content-Type": "multipart/form-data; boundary=b1"], body: Data(body.utf8))
    let redacted = Redactor(rules: .firebase).redact(request)
    let text = String(decoding: redacted.body, as: UTF8.self)
    #expect(!text.contains(Self.password))
    #expect(!text.contains(Self.oobCode))
    #expect(text.contains("\r\n\r\n<PASSWORD_1>\r\n--b1\r\n"))
    #expect(text.contains(#"{"refreshToken":"<REFRESH_TOKEN_1>"}"#))
    #expect(text.contains("\r\n\r\n<SECRET_1>\r\n--b1--\r\n"))
  }

  /// A cassette holding `body` as a request body of type `mimeType`, as a file.
  static func cassette(mimeType: String, body: String) throws -> Data {
    let cassette = Fixture.cassette([
      Interaction(
        request: HTTPRequest(
          method: .post, url: Fixture.url(updateURL), headerFields: ["Content-Type": mimeType],
          body: Data(body.utf8)),
        response: HTTPResponse(status: 200, headerFields: [:], body: Data()))
    ])
    return try cassette.encoded()
  }

  @Test("lint flags a rule-named or credential-named part that holds a non-alias")
  func lintFlagsParts() throws {
    for (name, mimeType, body) in Self.framings {
      let findings = CassetteLinter.lint(
        data: try Self.cassette(mimeType: mimeType, body: body), file: "x.har")
      let messages = findings.map(\.description)
      #expect(
        messages.contains { $0.contains(#"(part "password")"#) && $0.contains("not redacted") },
        "\(name): \(messages)")
      #expect(
        messages.contains { $0.contains(#"(part "oobCode")"#) && $0.contains("not redacted") },
        "\(name): \(messages)")
      #expect(!messages.contains { $0.contains(Self.password) || $0.contains(Self.oobCode) })
    }
  }

  @Test("lint passes a multipart body whose credential parts hold aliases")
  func lintPassesAliases() throws {
    let body = Self.multipart()
      .replacingOccurrences(of: Self.password, with: "<PASSWORD_1>")
      .replacingOccurrences(of: Self.oobCode, with: "<OOB_CODE_1>")
    let findings = CassetteLinter.lint(
      data: try Self.cassette(mimeType: "multipart/form-data; boundary=XX", body: body),
      file: "x.har")
    #expect(findings.isEmpty, "\(findings)")
  }

  @Test("replay matches a multipart request with a new boundary and the recorded alias")
  func replayMatches() async throws {
    let live = StubTransport { _ in
      HTTPResponse(
        status: 200, headerFields: ["Content-Type": "application/json"],
        body: Data(#"{"ok":true}"#.utf8))
    }
    let recorder = RecordingTransport(
      wrapping: live, backend: "firebase", contract: "multipart", rules: .firebase,
      secrets: [Self.password, Self.oobCode], clock: Fixture.clock, seed: 1,
      provenance: .emulator)
    func request(_ boundary: String, password: String, oobCode: String) -> HTTPRequest {
      let body = Self.multipart(boundary: boundary)
        .replacingOccurrences(of: Self.password, with: password)
        .replacingOccurrences(of: Self.oobCode, with: oobCode)
      return HTTPRequest(
        method: .post, url: Fixture.url(Self.updateURL),
        headerFields: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
        body: Data(body.utf8))
    }
    _ = try await recorder.send(
      request("rec-7f3a", password: Self.password, oobCode: Self.oobCode))
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("m.har")
    try recorder.write(to: file, variables: ["password": Self.password])
    let stored = String(decoding: try Data(contentsOf: file), as: UTF8.self)
    #expect(!stored.contains(Self.password) && !stored.contains(Self.oobCode))

    let cassette = try Cassette.load(from: file)
    let alias = try #require(cassette.variables["password"])
    let replay = ReplayTransport(cassette: cassette)
    // A new boundary, the password variable's alias, the code handed out as an alias.
    let answer = try await replay.send(
      request("replay-91c2", password: alias, oobCode: "<OOB_CODE_1>"))
    #expect(String(decoding: answer.body, as: UTF8.self).contains("ok"))
    try replay.assertAllUsed()
  }
}
