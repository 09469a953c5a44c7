import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// HAR 1.2 `postData.params` lists "posted parameters (in case of URL encoded
/// parameters)", with `fileName` and `contentType` for the files of a multipart form.
/// Found by review: loading turned `params` into a URL-encoded body whatever
/// `mimeType` said, so a JSON or multipart request became form text labelled JSON or
/// multipart, which import, lint, redaction and replay then read as something else.
@Suite("HAR import: postData params follow the body's media type", .timeLimit(.minutes(1)))
struct HARPostDataParamsTests {
  static func entry(mimeType: String, params: [[String: Any]], headers: [(String, String)] = [])
    -> HARBuilder.Object
  {
    HARBuilder.entry(
      url: "https://mbaas.api.nifcloud.com/2013-09-01/login", requestHeaders: headers,
      requestBody: ["mimeType": mimeType, "params": params])
  }

  static var login: [[String: Any]] {
    [
      ["name": "userName", "value": "ada"], ["name": "password", "value": "Pw0rd-Long-x9"],
    ]
  }

  static func importedRequest(_ entry: HARBuilder.Object) throws -> HTTPRequest {
    let cassette = try HARImporter.importHAR(
      data: try HARBuilder.export([entry]), rules: .ncmb, secrets: [])
    let reloaded = try Cassette.decode(try cassette.encoded())
    return try #require(try reloaded.interactions().first).request
  }

  @Test(
    "URL-encoded params (declared, or with no type) become a form body, redacted",
    arguments: [
      "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8", "",
    ])
  func form(mimeType: String) throws {
    let request = try Self.importedRequest(Self.entry(mimeType: mimeType, params: Self.login))
    let body = String(decoding: request.body, as: UTF8.self)
    #expect(body == "userName=ada&password=%3CPASSWORD_1%3E", "\(body)")
    #expect(request.headerFields["Content-Type"]?.contains("x-www-form-urlencoded") == true)
  }

  @Test("multipart params become a multipart body with the declared boundary, redacted")
  func multipart() throws {
    var params = Self.login
    params.append([
      "name": "avatar", "value": "PNG", "fileName": "a.png", "contentType": "image/png",
    ])
    let request = try Self.importedRequest(
      Self.entry(mimeType: "multipart/form-data; boundary=XyZ", params: params))
    let type = request.headerFields["Content-Type"] ?? ""
    #expect(type == "multipart/form-data; boundary=XyZ")
    let body = try #require(MultipartFormData(request.body, contentType: type))
    #expect(body.parts.map(\.name) == ["userName", "password", "avatar"])
    #expect(
      body.parts.map { String(decoding: body.value(of: $0), as: UTF8.self) }
        == ["ada", "<PASSWORD_1>", "PNG"])
    #expect(body.parts[2].contentType == "image/png")
    #expect(String(decoding: request.body, as: UTF8.self).contains("filename=\"a.png\""))
  }

  @Test(
    "params under a type that is neither a form nor multipart are refused, naming the field",
    arguments: ["application/json", "text/plain", "multipart/form-data"])
  func refused(mimeType: String) throws {
    let data = try HARBuilder.export([
      HARBuilder.entry(), Self.entry(mimeType: mimeType, params: Self.login),
    ])
    var message = ""
    do {
      _ = try HARImporter.importHAR(data: data, secrets: [])
    } catch { message = "\(error)" }
    #expect(message.contains("log.entries[1].request.postData.params"), "\(message)")
  }

  @Test("a Content-Type header decides over mimeType, as it does for text bodies")
  func headerDecides() throws {
    let request = try Self.importedRequest(
      Self.entry(
        mimeType: "application/json", params: Self.login,
        headers: [("Content-Type", "application/x-www-form-urlencoded")]))
    #expect(
      String(decoding: request.body, as: UTF8.self) == "userName=ada&password=%3CPASSWORD_1%3E")
  }

  @Test("text wins over params when a file has both (browsers write both for forms)")
  func textWins() throws {
    let entry = HARBuilder.entry(
      url: "https://mbaas.api.nifcloud.com/2013-09-01/login", requestHeaders: [],
      requestBody: [
        "mimeType": "application/x-www-form-urlencoded", "text": "userName=bob",
        "params": [["name": "userName", "value": "bob"]],
      ])
    #expect(String(decoding: try Self.importedRequest(entry).body, as: UTF8.self) == "userName=bob")
  }
}

/// Found by review: the same file meant two things. Lint (and import's structure check)
/// parse with `JSONSerialization`, which keeps the last of two equal keys; loading, replay
/// and import's reading parse with `JSONDecoder`, which keeps the first. A cassette holding
/// `"text"` twice showed lint one body and replay another, so a secret in the first copy
/// passed `cassette lint`. Every reader refuses a file with a repeated key, naming it.
@Suite("HAR: one meaning for every reader (repeated keys)", .timeLimit(.minutes(1)))
struct HARRepeatedKeyTests {
  /// A cassette whose entry 0 request body is given twice: first a password, then `{}`.
  static func cassette(key: String = "text") throws -> Data {
    let data = try HARBuilder.cassette([
      HARBuilder.entry(requestBody: ["mimeType": "application/json", "text": "MARKER"])
    ])
    let text = String(decoding: data, as: UTF8.self)
    let hidden = #""\#(key)":"{\"password\":\"Pw0rd-Long-x9\"}","text":"{}""#
    #expect(text.contains(#""text":"MARKER""#))
    return Data(text.replacingOccurrences(of: #""text":"MARKER""#, with: hidden).utf8)
  }

  @Test("lint reports a repeated key where it is", arguments: ["text", "te\\u0078t"])
  func lint(key: String) throws {
    let findings = CassetteLinter.lint(data: try Self.cassette(key: key), file: "x.har")
    #expect(
      findings.contains { $0.location == "log.entries[0].request.postData.text" },
      "\(findings)")
  }

  @Test("loading refuses it")
  func load() throws {
    var message = ""
    do {
      _ = try Cassette.decode(try Self.cassette())
    } catch { message = "\(error)" }
    #expect(message.contains("log.entries[0].request.postData.text"), "\(message)")
  }

  @Test("import refuses it")
  func importRefuses() throws {
    var message = ""
    do {
      _ = try HARImporter.importHAR(data: try Self.cassette(), secrets: [])
    } catch { message = "\(error)" }
    #expect(message.contains("log.entries[0].request.postData.text"), "\(message)")
  }

  @Test("equal keys in different objects are not repeats")
  func differentObjects() throws {
    let data = try HARBuilder.cassette([HARBuilder.entry(), HARBuilder.entry()])
    #expect(CassetteLinter.lint(data: data, file: "x.har").isEmpty)
    #expect(try Cassette.decode(data).entries.count == 2)
  }
}
