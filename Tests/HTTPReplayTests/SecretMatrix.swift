import BackendHTTP
import Foundation
import HTTPReplay
import UserBackendKit

/// Every kind of secret the adapters handle, in every position and encoding a HAR file or
/// a live exchange can carry it: the cases the encoding tests run through import, lint,
/// recording and replay.
enum SecretKind: String, CaseIterable, Sendable {
  case apiKey, signedIDToken, unsignedIDToken, refreshToken, ncmbSessionToken, password
  case oobCode, smsCode

  var value: String {
    switch self {
    case .apiKey: "AIzaSyZ9y8X7w6V5u4T3s2R1q0PoNmLkJiHgFeD"
    case .signedIDToken: Fixture.signedIDToken(userID: "uid-matrix")
    case .unsignedIDToken:
      // As the Firebase Auth Emulator issues them: alg none, a `kid`, a raw nonce.
      JSONWebToken.unsigned(
        claims: ["sub": "uid-matrix", "nonce": "raw-nonce-matrix", "exp": 1_767_229_200],
        header: ["alg": "none", "kid": "fakekid", "typ": "JWT"])
    case .refreshToken: "AMf-vBzMATRIXrefreshTOKEN_0123456789abcdefXYZ"
    case .ncmbSessionToken: "Xk3pQ9zLm2Nv8Rt4Wy6Bc1Df5"
    case .password: "matrix horse battery"
    case .oobCode: "oobMATRIX-code_1234567890"
    case .smsCode: "493817"
    }
  }

  /// The rules a HAR import of this kind uses (the SMS code is Firebase's `code` field).
  var rules: RedactionRules { self == .smsCode ? .firebaseImport : .standard }

  /// The JSON field carrying the kind (`note` for kinds found by their shape).
  var jsonField: String {
    switch self {
    case .apiKey: "note"
    case .signedIDToken, .unsignedIDToken: "idToken"
    case .refreshToken: "refreshToken"
    case .ncmbSessionToken: "sessionToken"
    case .password: "password"
    case .oobCode: "oobCode"
    case .smsCode: "code"
    }
  }

  /// The request header carrying the kind, when a client sends it in one.
  var header: (name: String, prefix: String)? {
    switch self {
    case .apiKey: ("x-goog-api-key", "")
    case .signedIDToken, .unsignedIDToken: ("Authorization", "Bearer ")
    case .ncmbSessionToken: ("X-NCMB-Apps-Session-Token", "")
    case .refreshToken, .password, .oobCode, .smsCode: nil
    }
  }

  /// The query parameter carrying the kind, when one does.
  var queryName: String? {
    switch self {
    case .apiKey: "key"
    case .signedIDToken, .unsignedIDToken: "auth"
    case .refreshToken: "token"
    case .password: "password"
    case .ncmbSessionToken, .oobCode, .smsCode: nil
    }
  }

  /// The form field carrying the kind, when one does.
  var formName: String? {
    switch self {
    case .apiKey: "key"
    case .signedIDToken, .unsignedIDToken: "id_token"
    case .refreshToken: "refresh_token"
    case .password: "password"
    case .ncmbSessionToken, .oobCode, .smsCode: nil
    }
  }

  /// `true` when the kind is recognisable in a URL path (by its shape).
  var inPath: Bool { [.apiKey, .signedIDToken, .unsignedIDToken, .refreshToken].contains(self) }
}

/// Where the secret sits.
enum SecretPosition: String, CaseIterable, Sendable {
  case requestBody, responseBody, header, query, form, path
}

/// How it is written.
enum SecretEncoding: String, CaseIterable, Sendable {
  /// As is.
  case plain
  /// JSON `\uXXXX` escapes inside a JSON body (`\u0041Iza…`).
  case jsonEscape
  /// Every byte percent-encoded (URL path, query, form).
  case percent
  /// The HAR body as base64 (`encoding: "base64"`).
  case base64
  /// `Content-Encoding: gzip` (stored base64 in HAR).
  case gzip
  /// `Content-Encoding: deflate`.
  case deflate
  /// The HAR file's own JSON string escapes the secret's first character.
  case harEscape
}

/// One case of the matrix.
struct SecretCase: Sendable, CustomStringConvertible {
  var kind: SecretKind
  var position: SecretPosition
  var encoding: SecretEncoding

  var description: String { "\(kind.rawValue) in \(position.rawValue) as \(encoding.rawValue)" }

  /// Every meaningful combination.
  static let all: [SecretCase] = SecretKind.allCases.flatMap { kind in
    SecretPosition.allCases.flatMap { position in
      SecretEncoding.allCases.compactMap { encoding in
        let c = SecretCase(kind: kind, position: position, encoding: encoding)
        return c.applies ? c : nil
      }
    }
  }

  /// Cases a live exchange can carry (no HAR-level encodings).
  static let live = all.filter { $0.encoding != .base64 && $0.encoding != .harEscape }

  var applies: Bool {
    switch position {
    case .requestBody, .responseBody:
      return [.plain, .jsonEscape, .base64, .gzip, .deflate, .harEscape].contains(encoding)
    case .header: return kind.header != nil && [.plain, .harEscape].contains(encoding)
    case .query:
      return kind.queryName != nil && [.plain, .percent, .harEscape].contains(encoding)
    case .form:
      return kind.formName != nil
        && [.plain, .percent, .gzip, .deflate, .base64].contains(encoding)
    case .path: return kind.inPath && [.plain, .percent].contains(encoding)
    }
  }

  static func percentAll(_ text: String) -> String {
    text.utf8.map { String(format: "%%%02X", $0) }.joined()
  }

  static func jsonEscapeAll(_ text: String) -> String {
    text.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
  }

  /// The live request and response carrying the secret (the body bytes as sent, encoded
  /// per `encoding`; `base64`/`harEscape` are applied when writing the HAR).
  func exchange() -> (HTTPRequest, HTTPResponse) {
    let secret = kind.value
    var url = "https://identitytoolkit.googleapis.com/v1/accounts:lookup"
    var requestFields: HTTPFields = ["Content-Type": "application/json"]
    var requestBody = Data(#"{"email":"alice@example.com"}"#.utf8)
    var responseBody = Data(#"{"kind":"ok"}"#.utf8)
    func jsonBody() -> Data {
      let value = encoding == .jsonEscape ? Self.jsonEscapeAll(secret) : secret
      return Data(#"{"email":"alice@example.com","\#(kind.jsonField)":"\#(value)"}"#.utf8)
    }
    switch position {
    case .requestBody: requestBody = jsonBody()
    case .responseBody: responseBody = jsonBody()
    case .header:
      if let header = kind.header { requestFields[header.name] = header.prefix + secret }
    case .query:
      let value = encoding == .percent ? Self.percentAll(secret) : FormURLEncoding.escape(secret)
      url += "?\(kind.queryName ?? "q")=\(value)&alt=json"
    case .form:
      requestFields["Content-Type"] = "application/x-www-form-urlencoded"
      let value = encoding == .percent ? Self.percentAll(secret) : FormURLEncoding.escape(secret)
      requestBody = Data("grant_type=x&\(kind.formName ?? "f")=\(value)".utf8)
    case .path:
      let value = encoding == .percent ? Self.percentAll(secret) : secret
      url = "https://identitytoolkit.googleapis.com/v1/tokens/\(value)/info"
    }
    var responseFields: HTTPFields = ["Content-Type": "application/json"]
    if encoding == .gzip || encoding == .deflate {
      let coding = encoding.rawValue
      if position == .responseBody {
        responseBody = ContentCoding.encode(responseBody, coding: coding)
        responseFields["Content-Encoding"] = coding
        responseFields["Content-Length"] = "\(responseBody.count)"
      } else {
        requestBody = ContentCoding.encode(requestBody, coding: coding)
        requestFields["Content-Encoding"] = coding
      }
    }
    let request = HTTPRequest(
      method: .post, url: Fixture.url(url), headerFields: requestFields, body: requestBody)
    return (request, HTTPResponse(status: 200, headerFields: responseFields, body: responseBody))
  }

  /// A browser-style HAR export (no `_replay`) of the exchange.
  func har() throws -> Data {
    let (request, response) = exchange()
    func body(_ data: Data) -> [String: Any] {
      let binary = String(data: data, encoding: .utf8) == nil
      if binary || encoding == .base64 {
        return ["text": data.base64EncodedString(), "encoding": "base64"]
      }
      return ["text": String(decoding: data, as: UTF8.self)]
    }
    func headers(_ fields: HTTPFields) -> [[String: String]] {
      fields.map { ["name": $0.name, "value": $0.value] }
    }
    var postData = body(request.body)
    postData["mimeType"] = request.headerFields["Content-Type"] ?? ""
    if let encoding = postData.removeValue(forKey: "encoding") { postData["_encoding"] = encoding }
    var content = body(response.body)
    content["mimeType"] = "application/json"
    content["size"] = response.body.count
    let query = FormURLEncoding.pairs(request.url.query ?? "", plusIsSpace: false)
    let entry: [String: Any] = [
      "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 12,
      "request": [
        "method": "POST", "url": request.url.absoluteString, "httpVersion": "HTTP/2",
        "cookies": [], "headers": headers(request.headerFields),
        "queryString": query.map { ["name": $0.0, "value": $0.1] }, "postData": postData,
        "headersSize": -1, "bodySize": request.body.count,
      ],
      "response": [
        "status": 200, "statusText": "OK", "httpVersion": "HTTP/2", "cookies": [],
        "headers": headers(response.headerFields), "content": content, "redirectURL": "",
        "headersSize": -1, "bodySize": response.body.count,
      ],
      "cache": [:], "timings": ["send": 0, "wait": 10, "receive": 2],
    ]
    let har: [String: Any] = [
      "log": [
        "version": "1.2", "creator": ["name": "Browser", "version": "1"], "entries": [entry],
      ]
    ]
    var data = try JSONSerialization.data(withJSONObject: har, options: [.sortedKeys])
    if encoding == .harEscape {
      // The file's JSON escapes the secret's first character (`\u0041Iza…`).
      var text = String(decoding: data, as: UTF8.self)
      let secret = kind.value
      let escaped = Self.jsonEscapeAll(String(secret.prefix(1))) + secret.dropFirst()
      text = text.replacingOccurrences(of: secret, with: escaped)
      data = Data(text.utf8)
    }
    return data
  }

  /// Where the secret still shows in a decoded cassette (its URL, header values and
  /// decoded bodies, in raw and percent-encoded form), or `nil`.
  static func leak(of secret: String, in cassette: Cassette) throws -> String? {
    let forms = [secret, FormURLEncoding.escape(secret), percentAll(secret)]
    for (index, interaction) in try cassette.interactions().enumerated() {
      var places = [
        ("url", interaction.request.url.absoluteString),
        ("request body", String(decoding: interaction.request.body, as: UTF8.self)),
        ("response body", String(decoding: interaction.response.body, as: UTF8.self)),
      ]
      for field in interaction.request.headerFields { places.append((field.name, field.value)) }
      for field in interaction.response.headerFields { places.append((field.name, field.value)) }
      for (place, text) in places where forms.contains(where: { text.contains($0) }) {
        return "entry \(index) \(place)"
      }
      if interaction.response.headerFields["Content-Encoding"] != nil {
        return "entry \(index) response still content-encoded"
      }
    }
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    return forms.contains { text.contains($0) } ? "the file" : nil
  }
}
