import BackendHTTP
import Foundation
import HTTPReplay
import Testing

/// The leak scan refuses a cassette whatever part of an interaction holds the secret:
/// request and response, body (JSON, form, text), header and query. A scan that skipped
/// one part (say response bodies) fails its case here.
@Suite("Leak scan in every position", .timeLimit(.minutes(2)))
struct LeakPositionTests {
  static let secret = "s3cr3t/value+with spaces&=ü"

  /// Where the secret goes.
  struct Position: Sendable, CustomTestStringConvertible {
    var name: String
    var interaction: @Sendable (String) -> Interaction
    var testDescription: String { name }
  }

  static let plain = HTTPRequest(
    method: .post, url: Fixture.url("https://example.com/v1/things"),
    headerFields: ["Content-Type": "application/json"], body: Fixture.json(["a": "b"]))
  static let ok = HTTPResponse(
    status: 200, headerFields: ["Content-Type": "application/json"],
    body: Fixture.json(["ok": true]))

  static func percent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }

  static let positions: [Position] = [
    Position(name: "request JSON body") { secret in
      var request = plain
      request.body = Fixture.json(["note": secret])
      return Interaction(request: request, response: ok)
    },
    Position(name: "request header") { secret in
      var request = plain
      request.headerFields["X-Custom"] = secret
      return Interaction(request: request, response: ok)
    },
    Position(name: "request query") { secret in
      var request = plain
      request.url = Fixture.url("https://example.com/v1/things?q=" + percent(secret))
      return Interaction(request: request, response: ok)
    },
    Position(name: "request form field") { secret in
      var request = plain
      request.headerFields["Content-Type"] = "application/x-www-form-urlencoded"
      request.body = Data(("grant=x&note=" + percent(secret)).utf8)
      return Interaction(request: request, response: ok)
    },
    Position(name: "request text body") { secret in
      var request = plain
      request.headerFields["Content-Type"] = "text/plain"
      request.body = Data(("note: " + secret).utf8)
      return Interaction(request: request, response: ok)
    },
    Position(name: "response JSON body") { secret in
      Interaction(
        request: plain,
        response: HTTPResponse(
          status: 200, headerFields: ["Content-Type": "application/json"],
          body: Fixture.json(["note": secret])))
    },
    Position(name: "response header") { secret in
      Interaction(
        request: plain,
        response: HTTPResponse(
          status: 200, headerFields: ["Content-Type": "application/json", "X-Custom": secret],
          body: Fixture.json(["ok": true])))
    },
    Position(name: "response form body") { secret in
      Interaction(
        request: plain,
        response: HTTPResponse(
          status: 200, headerFields: ["Content-Type": "application/x-www-form-urlencoded"],
          body: Data(("note=" + percent(secret)).utf8)))
    },
    Position(name: "response text body") { secret in
      Interaction(
        request: plain,
        response: HTTPResponse(
          status: 500, headerFields: ["Content-Type": "text/plain"],
          body: Data(("error near " + secret).utf8)))
    },
  ]

  @Test("the write is refused and names no secret", arguments: positions)
  func refused(_ position: Position) throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("leak.har")
    let cassette = Fixture.cassette([position.interaction(Self.secret)])
    do {
      try cassette.write(to: file, secrets: [Self.secret])
      Issue.record("a secret in the \(position.name) was written")
    } catch CassetteError.leakDetected(let findings) {
      #expect(!findings.isEmpty)
      #expect(findings.allSatisfy { $0.secretIndex == 0 })
      #expect(!CassetteError.leakDetected(findings).description.contains(Self.secret))
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// The same interactions without the secret are written: the refusal is about the
  /// secret, not the position.
  @Test("without the secret the write succeeds", arguments: positions)
  func cleanIsWritten(_ position: Position) throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("clean.har")
    try Fixture.cassette([position.interaction("harmless-value")]).write(
      to: file, secrets: [Self.secret])
    #expect(FileManager.default.fileExists(atPath: file.path))
  }
}
