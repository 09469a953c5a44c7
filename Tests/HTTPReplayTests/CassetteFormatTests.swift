import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// An independent HAR 1.2 structural check (required fields of log, entries, request,
/// response, content, per the HAR 1.2 spec), written here rather than reusing the linter.
private func harProblems(_ data: Data) -> [String] {
  var problems: [String] = []
  guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let log = root["log"] as? [String: Any]
  else { return ["no log object"] }
  func require(_ object: [String: Any]?, _ path: String, _ names: [String]) {
    guard let object else {
      problems.append("\(path) is not an object")
      return
    }
    for name in names where object[name] == nil { problems.append("\(path).\(name) missing") }
  }
  require(log, "log", ["version", "creator", "entries"])
  if log["version"] as? String != "1.2" { problems.append("log.version is not 1.2") }
  require(log["creator"] as? [String: Any], "log.creator", ["name", "version"])
  let entries = log["entries"] as? [[String: Any]] ?? []
  if entries.isEmpty { problems.append("no entries") }
  for (index, entry) in entries.enumerated() {
    let path = "entries[\(index)]"
    require(entry, path, ["startedDateTime", "time", "request", "response", "cache", "timings"])
    let request = entry["request"] as? [String: Any]
    require(
      request, path + ".request",
      [
        "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
        "bodySize",
      ])
    let response = entry["response"] as? [String: Any]
    require(
      response, path + ".response",
      [
        "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
        "headersSize", "bodySize",
      ])
    require(
      response?["content"] as? [String: Any], path + ".response.content", ["size", "mimeType"])
    require(entry["timings"] as? [String: Any], path + ".timings", ["send", "wait", "receive"])
    if let postData = request?["postData"] as? [String: Any] {
      require(postData, path + ".request.postData", ["mimeType"])
    }
  }
  let replay = log["_replay"] as? [String: Any]
  require(
    replay, "log._replay",
    ["format", "backend", "contract", "clock", "seed", "variables", "rules", "provenance"])
  require(
    replay?["provenance"] as? [String: Any], "log._replay.provenance", ["kind", "recordedAt"])
  return problems
}

@Suite("Cassette format", .timeLimit(.minutes(2)))
struct CassetteFormatTests {
  private func recordedCassette() async throws -> Cassette {
    let recorder = RecordingTransport(
      wrapping: Fixture.firebaseLike(), backend: "firebase", contract: "format", rules: .firebase,
      secrets: [Fixture.apiKey, Fixture.password], clock: Fixture.clock, seed: 1)
    _ = try await recorder.send(Fixture.signUp(key: Fixture.apiKey, password: Fixture.password))
    _ = try await recorder.send(
      Fixture.refresh(key: Fixture.apiKey, refreshToken: Fixture.refreshToken))
    return try recorder.cassette(variables: ["email": "alice@example.com"])
  }

  @Test("a recorded cassette passes a HAR 1.2 structural check and the linter")
  func harStructure() async throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("format.har")
    try await recordedCassette().write(to: file, secrets: [Fixture.apiKey, Fixture.password])
    let data = try Data(contentsOf: file)
    #expect(harProblems(data) == [])
    #expect(CassetteLinter.lint(data: data, file: "x.har").isEmpty)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""kind" : "live""#))
    #expect(!text.contains("Set-Cookie"))
  }

  @Test("writing is deterministic and JSON bodies are stored sorted and pretty")
  func deterministic() async throws {
    let first = try await recordedCassette().encoded()
    let second = try await recordedCassette().encoded()
    #expect(first == second)
    let cassette = try Cassette.decode(first)
    let stored = try #require(cassette.entries.first?.request.postData?.text)
    #expect(stored.hasPrefix("{\n"))
    let keys = stored.split(separator: "\n").compactMap { line -> String? in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return trimmed.hasPrefix("\"") ? String(trimmed.split(separator: "\"")[0]) : nil
    }
    #expect(keys == keys.sorted())
    #expect(keys.count == 3)
  }

  @Test("non-UTF-8 bodies are stored as base64 and come back byte for byte")
  func binaryBody() throws {
    let bytes = Data([0xFF, 0xFE, 0x00, 0x80, 0x41])
    let cassette = Fixture.cassette([
      Interaction(
        request: HTTPRequest(
          method: .put, url: Fixture.url("https://example.com/blob"), body: bytes),
        response: HTTPResponse(status: 200, body: bytes))
    ])
    let decoded = try Cassette.decode(try cassette.encoded())
    #expect(decoded.entries[0].response.content.encoding == "base64")
    #expect(decoded.entries[0].request.postData?.encoding == "base64")
    let interaction = try #require(try decoded.interactions().first)
    #expect(interaction.request.body == bytes)
    #expect(interaction.response.body == bytes)
  }

  @Test("the linter reports schema problems and leaks per file")
  func linter() throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("firebase"), withIntermediateDirectories: true)
    try Fixture.cassette([]).encoded().write(
      to: directory.appendingPathComponent("firebase/good.har"))
    let bad = """
      {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"},
       "entries": [{"startedDateTime": "2026-01-01T00:00:00Z", "request": {}, "response": {},
       "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0},
       "note": "\(Fixture.apiKey)"}]}}
      """
    try Data(bad.utf8).write(to: directory.appendingPathComponent("bad.har"))
    let findings = CassetteLinter.lint(directory: directory)
    #expect(findings.allSatisfy { $0.file == "bad.har" })
    #expect(findings.contains { $0.location == "log.entries[0].time" && $0.kind == .schema })
    #expect(findings.contains { $0.location == "log.entries[0].request.url" && $0.kind == .schema })
    #expect(findings.contains { $0.location == "log._replay" && $0.kind == .schema })
    #expect(findings.contains { $0.kind == .leak && $0.message.contains("Google API key") })
    #expect(!findings.map(\.description).joined().contains(Fixture.apiKey))
  }

  @Test("HAR import redacts every copy and tolerates unknown fields")
  func harImport() throws {
    let url =
      "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=\(Fixture.apiKey)"
    let requestBody = #"{\"email\":\"alice@example.com\",\"password\":\"\#(Fixture.password)\"}"#
    let responseBody =
      #"{\"idToken\":\"\#(Fixture.signedIDToken())\",\"refreshToken\":\"\#(Fixture.refreshToken)\"}"#
    let har = """
      {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
        "pages": [{"id": "page_1"}],
        "entries": [{
          "pageref": "page_1", "_initiator": {"type": "script"}, "serverIPAddress": "1.2.3.4",
          "startedDateTime": "2026-02-03T04:05:06.789Z", "time": 123.4,
          "request": {"method": "POST", "url": "\(url)", "httpVersion": "http/2.0",
            "headers": [{"name": ":authority", "value": "identitytoolkit.googleapis.com"},
                        {"name": "content-type", "value": "application/json"},
                        {"name": "cookie", "value": "SID=abcdefsecret"}],
            "queryString": [{"name": "key", "value": "\(Fixture.apiKey)"}],
            "cookies": [{"name": "SID", "value": "abcdefsecret"}],
            "postData": {"mimeType": "application/json", "text": "\(requestBody)"},
            "headersSize": -1, "bodySize": 50},
          "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0",
            "headers": [{"name": "content-type", "value": "application/json"},
                        {"name": "set-cookie", "value": "SID=abcdefsecret"}],
            "cookies": [{"name": "SID", "value": "abcdefsecret"}],
            "content": {"size": 10, "mimeType": "application/json", "text": "\(responseBody)"},
            "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 99},
          "cache": {"beforeRequest": null}, "timings": {"send": 1, "wait": 2, "receive": 3}
        }, {
          "startedDateTime": "2026-02-03T04:05:07Z", "time": 1,
          "request": {"method": "GET", "url": "data:image/png;base64,AAAA"},
          "response": {"status": 200}
        }]}}
      """
    let cassette = try HARImporter.importHAR(
      data: Data(har.utf8), rules: .firebase, secrets: [Fixture.password, "abcdefsecret"],
      backend: "firebase", contract: "imported-sign-in")
    #expect(cassette.entries.count == 1)
    let entry = try #require(cassette.entries.first)
    #expect(entry.request.queryString == [HARNameValue(name: "key", value: "<FIREBASE_API_KEY_1>")])
    #expect(entry.request.cookies.isEmpty && entry.response.cookies.isEmpty)
    #expect(!entry.request.headers.contains { $0.name.hasPrefix(":") || $0.name == "cookie" })
    #expect(entry.response.headers.map(\.name) == ["content-type"])
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    for secret in [Fixture.apiKey, Fixture.password, Fixture.refreshToken, "abcdefsecret"] {
      #expect(!text.contains(secret))
    }
    #expect(text.contains("<PASSWORD_1>") && text.contains("<REFRESH_TOKEN_1>"))
    #expect(cassette.clock == ISO8601.date(from: "2026-02-03T04:05:06.789Z"))
    #expect(harProblems(try cassette.encoded()) == [])
  }

  @Test("HAR import refuses a file whose secret survives the rules")
  func harImportLeak() throws {
    let har = """
      {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{
        "startedDateTime": "2026-02-03T04:05:06Z", "time": 0,
        "request": {"method": "GET", "url": "https://example.com/a",
          "headers": [{"name": "X-Custom-Secret", "value": "my-private-value"}]},
        "response": {"status": 204}}]}}
      """
    #expect(throws: CassetteError.self) {
      _ = try HARImporter.importHAR(data: Data(har.utf8), secrets: ["my-private-value"])
    }
  }
}
