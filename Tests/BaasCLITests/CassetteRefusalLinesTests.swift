import Foundation
import Testing

/// `cassette import` refusals with several findings print one line per finding, as real
/// lines; what comes from the file (a multipart part name with an escape sequence) is
/// still escaped. Before, the message was escaped after its lines were joined, so its own
/// line breaks printed as `\u{0A}`.
@Suite("baas cassette import: refusals print readable lines", .timeLimit(.minutes(2)))
struct CassetteRefusalLinesTests {
  static let password = "Configured-Passw0rd-77"

  static func har(requestType: String, body: String) throws -> Data {
    let entry: [String: Any] = [
      "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 0, "cache": [String: Any](),
      "timings": ["send": 0, "wait": 0, "receive": 0],
      "request": [
        "method": "POST", "url": "https://identitytoolkit.googleapis.com/v1/accounts:update",
        "httpVersion": "HTTP/1.1", "cookies": [Any](),
        "headers": [["name": "Content-Type", "value": requestType]], "queryString": [Any](),
        "headersSize": -1, "bodySize": -1,
        "postData": ["mimeType": requestType, "text": body],
      ] as [String: Any],
      "response": [
        "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [Any](),
        "headers": [Any](), "content": ["size": 0, "mimeType": "", "text": ""],
        "redirectURL": "", "headersSize": -1, "bodySize": -1,
      ] as [String: Any],
    ]
    let log: [String: Any] = [
      "version": "1.2", "creator": ["name": "t", "version": "1"], "entries": [entry],
    ]
    return try JSONSerialization.data(withJSONObject: ["log": log])
  }

  /// The lines of `text` that say something.
  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init)
  }

  @Test("a leak refusal: a heading line, then one line per finding")
  func leakRefusal() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let input = baas.home.appendingPathComponent("leak.har")
    let body = #"{"note":"\#(Self.password)","other":"\#(Self.password)"}"#
    try Self.har(requestType: "application/json", body: body).write(to: input)
    let result = try await baas.run(
      ["cassette", "import", input.path, "--backend", "firebase"],
      environment: ["BAAS_PASSWORD": Self.password])
    #expect(result.status == 1, "\(result.allOutput)")
    #expect(!result.standardError.contains("\\u{0A}"), "\(result.standardError)")
    let lines = Self.lines(result.standardError)
    #expect(lines.first?.hasPrefix("baas cassette import: refusing") == true, "\(lines)")
    #expect(lines.filter { $0.hasPrefix("  - ") }.count == 2, "\(lines)")
    #expect(!result.allOutput.contains(Self.password))
  }

  @Test("a lint refusal: one line per finding, text from the file still escaped")
  func lintRefusal() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let input = baas.home.appendingPathComponent("parts.har")
    let part = { (name: String) in
      "--b0\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n"
        + "Content-Type: application/xml\r\n\r\n<password>x</password>\r\n"
    }
    let body = part("a\u{1B}[2Jb") + part("c\u{1B}]0;titled\u{07}") + "--b0--\r\n"
    try Self.har(requestType: "multipart/form-data; boundary=b0", body: body).write(to: input)
    let result = try await baas.run(["cassette", "import", input.path, "--backend", "firebase"])
    #expect(result.status == 1, "\(result.allOutput)")
    #expect(!result.standardError.contains("\\u{0A}"), "\(result.standardError)")
    #expect(!result.standardError.contains("\u{1B}"))
    #expect(!result.standardError.contains("\u{07}"))
    #expect(result.standardError.contains("\\u{1B}"))
    let lines = Self.lines(result.standardError)
    #expect(lines.first?.hasPrefix("baas cassette import: refusing") == true, "\(lines)")
    #expect(lines.filter { $0.hasPrefix("  - ") }.count == 2, "\(lines)")
  }
}

/// `record` printed a contract file's load error without escaping it: a key in the file
/// with an escape sequence reached the terminal raw.
@Suite("baas record: contract load errors are escaped", .timeLimit(.minutes(2)))
struct RecordContractErrorTests {
  @Test("an escape sequence in a contract's key is shown escaped")
  func escaped() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("contracts")
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    try Data(#"{"name":"x","steps":[],"\u001b]0;owned\u0007":1}"#.utf8)
      .write(to: contracts.appendingPathComponent("x.json"))
    let result = try await baas.run([
      "record", "--backend", "firebase", "--emulator", "--contracts", contracts.path,
      "--out", baas.home.appendingPathComponent("out").path,
    ])
    #expect(result.status != 0, "\(result.allOutput)")
    #expect(result.standardError.contains("cannot load contracts"), "\(result.allOutput)")
    #expect(!result.allOutput.contains("\u{1B}"))
    #expect(!result.allOutput.contains("\u{07}"))
  }
}
