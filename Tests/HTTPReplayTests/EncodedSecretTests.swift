import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// Secrets hidden by an encoding (JSON escapes, percent-encoding, base64 bodies, gzip and
/// deflate content codings) must be redacted on import and recording, found by lint, and
/// matched by replay: every secret kind in every position.
@Suite("Secrets in encoded values", .timeLimit(.minutes(2)))
struct EncodedSecretTests {
  @Test("import redacts the secret, whatever its encoding", arguments: SecretCase.all)
  func importRedacts(_ secretCase: SecretCase) throws {
    let cassette = try HARImporter.importHAR(
      data: try secretCase.har(), rules: secretCase.kind.rules, secrets: [])
    #expect(try SecretCase.leak(of: secretCase.kind.value, in: cassette) == nil)
    let lint = CassetteLinter.lint(
      data: try cassette.encoded(), file: "imported.har", secrets: [secretCase.kind.value])
    #expect(lint.isEmpty, "\(lint)")
  }

  @Test("lint finds the secret, whatever its encoding", arguments: SecretCase.all)
  func lintFinds(_ secretCase: SecretCase) throws {
    // The SMS code has no shape and `code` is no standard rule: lint needs its value.
    let secrets = secretCase.kind == .smsCode ? [secretCase.kind.value] : []
    let findings = CassetteLinter.lint(data: try secretCase.har(), file: "x.har", secrets: secrets)
      .filter { $0.kind == .leak }
    #expect(!findings.isEmpty)
    for finding in findings { #expect(!finding.description.contains(secretCase.kind.value)) }
  }

  @Test("recording redacts the secret, whatever its encoding", arguments: SecretCase.live)
  func recordingRedacts(_ secretCase: SecretCase) async throws {
    let (request, response) = secretCase.exchange()
    let recorder = RecordingTransport(
      wrapping: StubTransport { _ in response }, backend: "firebase", contract: "matrix",
      rules: secretCase.kind.rules, secrets: [], clock: Fixture.clock, seed: 1)
    let live = try await recorder.send(request)
    #expect(live == response)  // the caller still gets the live answer
    let cassette = try recorder.cassette(variables: [:])
    #expect(try SecretCase.leak(of: secretCase.kind.value, in: cassette) == nil)
  }

  @Test("replay matches an encoded request to its recording", arguments: SecretCase.live)
  func replayMatches(_ secretCase: SecretCase) async throws {
    guard secretCase.position != .responseBody else { return }
    var plain = secretCase
    plain.encoding = .plain
    let (recordedRequest, response) = plain.exchange()
    let recorder = RecordingTransport(
      wrapping: StubTransport { _ in response }, backend: "firebase", contract: "matrix",
      rules: secretCase.kind.rules, secrets: [], clock: Fixture.clock, seed: 1)
    _ = try await recorder.send(recordedRequest)
    let replay = ReplayTransport(cassette: try recorder.cassette(variables: [:]))
    let (liveRequest, _) = secretCase.exchange()
    do {
      let answer = try await replay.send(liveRequest)
      #expect(answer.status == 200)
    } catch {
      Issue.record("no match: \(error)")
      #expect(!"\(error)".contains(secretCase.kind.value))
    }
  }

  @Test("the issue's example: a gzip, base64 HAR answer with an RS256 ID token")
  func gzipBase64Example() throws {
    let idToken = Fixture.signedIDToken()
    let refresh = "AMf-vBxEXAMPLErefreshTokenFromTheIssue_0123456789"
    let body = ContentCoding.encode(
      Data(#"{"idToken":"\#(idToken)","refreshToken":"\#(refresh)"}"#.utf8), coding: "gzip")
    let har = """
      {"log":{"version":"1.2","creator":{"name":"Chrome","version":"1"},"entries":[{
        "startedDateTime":"2026-01-01T00:00:00.000Z","time":5,"cache":{},
        "timings":{"send":0,"wait":5,"receive":0},
        "request":{"method":"POST","url":"https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
          "httpVersion":"HTTP/2","cookies":[],"headers":[],"queryString":[],"headersSize":-1,"bodySize":0},
        "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/2","cookies":[],
          "headers":[{"name":"content-type","value":"application/json"},{"name":"content-encoding","value":"gzip"}],
          "content":{"size":120,"mimeType":"application/json","encoding":"base64","text":"\(body.base64EncodedString())"},
          "redirectURL":"","headersSize":-1,"bodySize":\(body.count)}}]}}
      """
    // Lint of the export itself sees both tokens through base64 and gzip.
    let findings = CassetteLinter.lint(data: Data(har.utf8), file: "export.har")
      .filter { $0.kind == .leak }.map(\.description)
    #expect(findings.contains { $0.contains("signed JWT") })
    #expect(findings.contains { $0.contains("refresh") })

    let cassette = try HARImporter.importHAR(
      data: Data(har.utf8), rules: .firebaseImport, secrets: [])
    let response = try #require(try cassette.interactions().first?.response)
    #expect(response.headerFields["Content-Encoding"] == nil)
    let json = Fixture.jsonObject(response.body)
    #expect(json["refreshToken"] as? String == "<REFRESH_TOKEN_1>")
    let replaced = try #require(json["idToken"] as? String)
    #expect(try JSONWebToken(parsing: replaced).signature.isEmpty)
    #expect(try SecretCase.leak(of: idToken, in: cassette) == nil)
    #expect(try SecretCase.leak(of: refresh, in: cassette) == nil)
  }

  @Test("a content coding that cannot be decoded is refused with its name")
  func unsupportedCodingRefused() throws {
    let secretCase = SecretCase(kind: .password, position: .responseBody, encoding: .gzip)
    var har = String(decoding: try secretCase.har(), as: UTF8.self)
    har = har.replacingOccurrences(of: #""value":"gzip""#, with: #""value":"br""#)
    #expect {
      _ = try HARImporter.importHAR(data: Data(har.utf8), secrets: [])
    } throws: { error in
      "\(error)".contains("\"br\"") && "\(error)".contains("response.content")
    }
    let findings = CassetteLinter.lint(data: Data(har.utf8), file: "x.har")
    #expect(findings.contains { $0.message.contains("cannot be checked") })
  }
}
