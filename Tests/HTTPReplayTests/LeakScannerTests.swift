import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

@Suite("Leak scan", .timeLimit(.minutes(2)))
struct LeakScannerTests {
  static let tricky = "pa$$/wörd+?\"x\\yz"

  /// How the secret is planted, the secret, and the form the scan must report.
  struct Plant: Sendable, CustomTestStringConvertible {
    var name: String
    var secret: String
    var form: LeakForm
    var probe: @Sendable (String) -> String
    var inBody = false
    var testDescription: String { name }
  }

  static let plants: [Plant] = [
    Plant(name: "raw", secret: "rawSecretValue-12345", form: .raw, probe: { $0 }),
    Plant(
      name: "percent-encoded", secret: tricky, form: .percentEncoded,
      probe: { "q=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }),
    Plant(
      name: "percent-encoded with lower-case hex", secret: tricky, form: .percentEncoded,
      probe: {
        "q="
          + LeakScanner.lowercasingPercentEscapes(
            $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
      }),
    Plant(name: "JSON-escaped", secret: tricky, form: .jsonEscaped, probe: { $0 }),
    Plant(
      name: "JSON-escaped inside a stored JSON body", secret: tricky, form: .jsonEscaped,
      probe: { $0 }, inBody: true),
    Plant(
      name: "base64 at an odd alignment", secret: tricky, form: .base64,
      probe: { "Basic " + Data(("user:" + $0).utf8).base64EncodedString() }),
    Plant(
      name: "base64url", secret: tricky, form: .base64url,
      probe: { Base64URL.encode(Data($0.utf8)) }),
  ]

  @Test("a secret in each encoded form is caught and the write refused", arguments: plants)
  func refusesLeak(plant: Plant) throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("leak.har")
    var cassette = Fixture.cassette([])
    if plant.inBody {
      cassette = Fixture.cassette([
        Interaction(
          request: HTTPRequest(method: .get, url: Fixture.url("https://example.com/x")),
          response: HTTPResponse(
            status: 200, headerFields: ["Content-Type": "application/json"],
            body: Fixture.json(["note": plant.probe(plant.secret)])))
      ])
    } else {
      cassette.variables = ["probe": plant.probe(plant.secret)]
    }
    do {
      try cassette.write(to: file, secrets: ["unrelated-secret", plant.secret])
      Issue.record("the write was not refused")
    } catch CassetteError.leakDetected(let findings) {
      #expect(findings.contains { $0.form == plant.form && $0.secretIndex == 1 })
      let message = CassetteError.leakDetected(findings).description
      #expect(!message.contains(plant.secret))
      #expect(message.contains(plant.form.description))
      #expect(message.contains("line"))
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test("generic shapes are caught: Google API keys and signed JWTs, not unsigned ones")
  func genericShapes() {
    let unsigned = JSONWebToken.unsigned(claims: ["sub": "x"])
    let text = """
      {"a": "\(Fixture.apiKey)", "b": "\(Fixture.signedIDToken())", "c": "\(unsigned)"}
      """
    let findings = LeakScanner.scan(Data(text.utf8), secrets: [])
    #expect(findings.map(\.form) == [.googleAPIKey, .signedJWT])
    #expect(findings.allSatisfy { $0.secretIndex == nil && $0.line == 1 })
  }

  @Test("a clean cassette is written and loads back identically")
  func cleanWrite() throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("nested/clean.har")
    var cassette = Fixture.cassette([
      Interaction(
        request: HTTPRequest(method: .get, url: Fixture.url("https://example.com/a?b=1")),
        response: HTTPResponse(status: 204))
    ])
    cassette.variables = ["email": "alice@example.com"]
    try cassette.write(to: file, secrets: ["not-in-there-0123"])
    let loaded = try Cassette.load(from: file)
    #expect(loaded == cassette)
    #expect(try loaded.encoded() == (try cassette.encoded()))
  }
}
