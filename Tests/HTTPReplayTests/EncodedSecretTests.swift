import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

/// Secrets hidden by an encoding (JSON escapes, percent-encoding, base64 bodies, gzip and
/// deflate content codings) must be redacted on import and recording, found by lint, and
/// matched by replay: every secret kind in every position.
@Suite("Secrets in encoded values", .timeLimit(.minutes(5)))
struct EncodedSecretTests {
  // Each matrix is one test looping over its cases (the case named in every failure), run
  // off the cooperative pool: ~500 separate CPU-bound test cases would crowd out the
  // emulator-server tests that share the 2-thread pool.

  @Test("import redacts the secret, whatever its encoding")
  func importRedacts() async throws {
    let failures = try await offPool {
      try SecretCase.all.compactMap { secretCase -> String? in
        let cassette: Cassette
        do {
          cassette = try HARImporter.importHAR(
            data: try secretCase.har(), rules: secretCase.kind.rules, secrets: [])
        } catch {
          return "\(secretCase): import failed: \(error)"
        }
        if let leak = try SecretCase.leak(of: secretCase.kind.value, in: cassette) {
          return "\(secretCase): still in \(leak)"
        }
        let lint = CassetteLinter.lint(
          data: try cassette.encoded(), file: "imported.har", secrets: [secretCase.kind.value])
        return lint.isEmpty ? nil : "\(secretCase): lint \(lint)"
      }
    }
    #expect(failures.isEmpty, "\(failures.count) cases: \(failures.joined(separator: "\n"))")
    #expect(SecretCase.all.count > 100)
  }

  @Test("lint finds the secret, whatever its encoding")
  func lintFinds() async throws {
    let failures = try await offPool {
      try SecretCase.all.compactMap { secretCase -> String? in
        // The SMS code has no shape and `code` is no standard rule: lint needs its value.
        let secrets = secretCase.kind == .smsCode ? [secretCase.kind.value] : []
        let findings = CassetteLinter.lint(
          data: try secretCase.har(), file: "x.har", secrets: secrets
        ).filter { $0.kind == .leak }
        if findings.isEmpty { return "\(secretCase): not found" }
        if findings.contains(where: { $0.description.contains(secretCase.kind.value) }) {
          return "\(secretCase): a finding shows the secret"
        }
        return nil
      }
    }
    #expect(failures.isEmpty, "\(failures.count) cases: \(failures.joined(separator: "\n"))")
  }

  @Test("recording redacts the secret, whatever its encoding")
  func recordingRedacts() async throws {
    var failures: [String] = []
    for secretCase in SecretCase.live {
      let (request, response) = secretCase.exchange()
      let recorder = RecordingTransport(
        wrapping: StubTransport { _ in response }, backend: "firebase", contract: "matrix",
        rules: secretCase.kind.rules, secrets: [], clock: Fixture.clock, seed: 1)
      let live = try await recorder.send(request)
      if live != response { failures.append("\(secretCase): the caller got another answer") }
      do {
        let leak = try await offPool {
          try SecretCase.leak(of: secretCase.kind.value, in: try recorder.cassette(variables: [:]))
        }
        if let leak { failures.append("\(secretCase): still in \(leak)") }
      } catch {
        failures.append("\(secretCase): \(error)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) cases: \(failures.joined(separator: "\n"))")
  }

  @Test("replay matches an encoded request to its recording")
  func replayMatches() async throws {
    var failures: [String] = []
    for secretCase in SecretCase.live where secretCase.position != .responseBody {
      var plain = secretCase
      plain.encoding = .plain
      let (recordedRequest, response) = plain.exchange()
      let recorder = RecordingTransport(
        wrapping: StubTransport { _ in response }, backend: "firebase", contract: "matrix",
        rules: secretCase.kind.rules, secrets: [], clock: Fixture.clock, seed: 1)
      _ = try await recorder.send(recordedRequest)
      let cassette = try await offPool { try recorder.cassette(variables: [:]) }
      let replay = ReplayTransport(cassette: cassette)
      let (liveRequest, _) = secretCase.exchange()
      do {
        _ = try await replay.send(liveRequest)
      } catch {
        let shown = "\(error)".contains(secretCase.kind.value) ? " (and the error shows it)" : ""
        failures.append("\(secretCase): no match\(shown)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) cases: \(failures.joined(separator: "\n"))")
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
