import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// One rule for what in a URL may be a secret that no name announces: a path segment's
/// parameters (`/x;jsessionid=SECRET`) and a query item that is not `name=value`
/// (`?SECRET`). Logs (`--verbose`, the emulator's request list) replace them with
/// `<redacted>` (`LoggedRequestTarget`); cassettes replace them with an alias, in record,
/// import and replay alike, and lint reports one that is not an alias.
@Suite("HTTPReplay: URL parts logs redact are redacted in cassettes", .timeLimit(.minutes(1)))
struct URLParameterSecretTests {
  static let secret = "sessTOKEN9876543210abcdefgh"
  static let base = "https://identitytoolkit.googleapis.com/v1"
  static let urls = [
    base + "/accounts:resetPassword/OOBcode1234;jsessionid=\(secret)",
    base + "/accounts:lookup;\(secret)",
    base + "/x;a=1;token=\(secret)/accounts:lookup",
    base + "/x;token=%73ess\(secret.dropFirst(3))/y",
    base + "/accounts:lookup?\(secret)",
    base + "/accounts:lookup?alt=json&\(secret)",
  ]

  /// `true` when `text` holds the secret, raw or percent-decoded.
  static func holdsSecret(_ text: String) -> Bool {
    text.contains(secret) || (text.removingPercentEncoding ?? "").contains(secret)
  }

  @Test("the log line hides it (the rule cassettes follow)", arguments: urls)
  func logs(_ url: String) {
    #expect(!Self.holdsSecret(HTTPExchangeRecord.redact(Fixture.url(url))))
  }

  @Test("recording stores an alias, and replay of the same request matches it", arguments: urls)
  func record(_ url: String) async throws {
    let request = HTTPRequest(
      method: .post, url: Fixture.url(url), headerFields: ["Content-Type": "application/json"])
    let recorder = RecordingTransport(
      wrapping: StubTransport { _ in HTTPResponse(status: 200, body: Data("{}".utf8)) },
      backend: "firebase", contract: "x", rules: .firebase, secrets: [], clock: Fixture.clock,
      seed: 1)
    _ = try await recorder.send(request)
    let cassette = try recorder.cassette(variables: [:])
    let stored = try #require(cassette.entries.first?.request.url)
    #expect(!Self.holdsSecret(stored))
    #expect(!Self.holdsSecret(String(decoding: try cassette.encoded(), as: UTF8.self)))
    let replay = ReplayTransport(cassette: try Cassette.decode(try cassette.encoded()))
    #expect(try await replay.send(request).status == 200)
  }

  @Test("import stores an alias", arguments: urls)
  func importHAR(_ url: String) throws {
    let data = try HARBuilder.export([HARBuilder.entry(url: url)])
    let cassette = try HARImporter.importHAR(data: data, secrets: [])
    #expect(!Self.holdsSecret(String(decoding: try cassette.encoded(), as: UTF8.self)))
    #expect(CassetteLinter.lint(data: try cassette.encoded(), file: "x.har").isEmpty)
  }

  @Test("lint reports one that is not an alias", arguments: urls)
  func lint(_ url: String) throws {
    let data = try HARBuilder.cassette([HARBuilder.entry(url: url)])
    let findings = CassetteLinter.lint(data: data, file: "x.har")
    #expect(findings.contains { $0.location.hasPrefix("log.entries[0].request.url") })
  }
}
