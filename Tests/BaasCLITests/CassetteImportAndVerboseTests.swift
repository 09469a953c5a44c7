import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `cassette import` validates like lint, decodes hidden secrets and keeps out foreign
/// hosts; `--verbose` logs exchanges without secrets.
@Suite("baas cassette import and --verbose", .timeLimit(.minutes(2)))
struct CassetteImportAndVerboseTests {
  /// An RS256-shaped ID token and a refresh token, gzip-compressed then base64 in the HAR
  /// (the browser export of issue 16).
  static let idToken =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2dsZS5jb20vZGVtbyIsImF1ZCI6ImRlbW8iLCJzdWIiOiJ1aWQtY2xpIiwiZXhwIjoxNzY3MjI5MjAwLCJpYXQiOjE3NjcyMjU2MDB9.bm90LWEtcmVhbC1zaWduYXR1cmUtYnV0LXNoYXBlZC1saWtlLW9uZQ"
  static let refreshToken = "AMf-vBxCLIrefreshTOKENfromIssue16_0123456789abcdef"
  static let gzipBase64 =
    "H4sIAAAAAAACAz2QXW+CMABF/4rheTMUppO9KXNaBxhxUMrLQlsI7agQy7fZf59k2Z7vveck96Zx9lF+pRftZaalwyEnO8qP/HAORgg8DhWUdRXbcAml6iHvONsXHRQlPxcsgBd9ft9U1HSnTcn2fkfHsnVMr8BmOMSR3yZG2DiStcRgKj4vBDH0Nt6FNRkm9hv4ZfsFQSvu2IeRITixQIJONTb6anLGUT45e2/EpivgwhXr7t6tcHTiR7E1PUEHVwSG+7qx5kRauoO2NZVhTmwwJog1OPIBlUGNL6HuRF6Jo00R20AlqC4cZDXxSXuYadc0u6Yq/79j7WaP7aa3HfiXHN+3XnYtJVSqScHyUweG+bRYPq+shFCWZtr3D6AftwBQAQAA"

  static func entry(host: String, gzip: Bool) -> String {
    let content =
      gzip
      ? #"{"size":200,"mimeType":"application/json","encoding":"base64","text":"\#(gzipBase64)"}"#
      : #"{"size":2,"mimeType":"text/css","text":"{}"}"#
    let encoding = gzip ? #",{"name":"content-encoding","value":"gzip"}"# : ""
    return """
      {"startedDateTime":"2026-01-01T00:00:00.000Z","time":5,"cache":{},
       "timings":{"send":0,"wait":5,"receive":0},
       "request":{"method":"POST","url":"https://\(host)/v1/accounts:signInWithPassword",
         "httpVersion":"HTTP/2","cookies":[],"headers":[],"queryString":[],"headersSize":-1,
         "bodySize":0},
       "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/2","cookies":[],
         "headers":[{"name":"content-type","value":"application/json"}\(encoding)],
         "content":\(content),"redirectURL":"","headersSize":-1,"bodySize":100}}
      """
  }

  static func har(_ entries: [String]) -> String {
    #"{"log":{"version":"1.2","creator":{"name":"Chrome","version":"1"},"entries":["#
      + entries.joined(separator: ",") + "]}}"
  }

  @Test("the gzip + base64 export: import redacts both tokens, lint finds them in the export")
  func gzipExport() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let input = baas.home.appendingPathComponent("export.har")
    try Data(Self.har([Self.entry(host: "identitytoolkit.googleapis.com", gzip: true)]).utf8)
      .write(to: input)
    let lintExport = try await baas.run(["cassette", "lint", input.path])
    #expect(lintExport.status == 1, "\(lintExport.allOutput)")
    #expect(lintExport.standardOutput.contains("signed JWT shape"))
    #expect(lintExport.standardOutput.contains("refresh token shape"))

    let output = baas.home.appendingPathComponent("imported.har")
    let result = try await baas.run(
      ["cassette", "import", input.path, "--backend", "firebase", "--out", output.path])
    #expect(result.status == 0, "\(result.allOutput)")
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(!text.contains(Self.idToken))
    #expect(!text.contains(Self.refreshToken))
    #expect(!text.lowercased().contains("content-encoding"))
    #expect(text.contains("<REFRESH_TOKEN_1>"))
    let lint = try await baas.run(["cassette", "lint", output.path])
    #expect(lint.status == 0, "\(lint.allOutput)")
    #expect(lint.standardOutput.contains("0 findings"))
    #expect(!(result.allOutput + lint.allOutput).contains(Self.refreshToken))
  }

  @Test("a HAR lint refuses is refused by import, and nothing is written")
  func invalidHARRefused() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    for (name, text) in [
      ("no-entries", #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"}}}"#),
      ("empty-entries", Self.har([])),
      ("no-log", #"{"entries":[]}"#),
    ] {
      let input = baas.home.appendingPathComponent("\(name).har")
      try Data(text.utf8).write(to: input)
      let output = baas.home.appendingPathComponent("\(name)-out.har")
      let result = try await baas.run(["cassette", "import", input.path, "--out", output.path])
      #expect(result.status == 1, "\(name): \(result.allOutput)")
      #expect(result.standardError.contains("log"), "\(name): \(result.allOutput)")
      #expect(!FileManager.default.fileExists(atPath: output.path), "\(name)")
    }
  }

  @Test("with --backend, entries to other hosts are left out with a warning naming them")
  func foreignHosts() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let input = baas.home.appendingPathComponent("mixed.har")
    try Data(
      Self.har([
        Self.entry(host: "fonts.googleapis.com", gzip: false),
        Self.entry(host: "identitytoolkit.googleapis.com", gzip: true),
        Self.entry(host: "analytics.example.net", gzip: false),
      ]).utf8
    ).write(to: input)
    let output = baas.home.appendingPathComponent("out.har")
    let result = try await baas.run(
      ["cassette", "import", input.path, "--backend", "firebase", "--out", output.path])
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardError.contains("warning"))
    #expect(result.standardError.contains("fonts.googleapis.com (1)"))
    #expect(result.standardError.contains("analytics.example.net (1)"))
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(!text.contains("fonts.googleapis.com"))
    #expect(!text.contains("analytics.example.net"))
    #expect(text.contains("identitytoolkit.googleapis.com"))

    let onlyForeign = baas.home.appendingPathComponent("foreign.har")
    try Data(Self.har([Self.entry(host: "fonts.googleapis.com", gzip: false)]).utf8)
      .write(to: onlyForeign)
    let refused = try await baas.run(
      ["cassette", "import", onlyForeign.path, "--backend", "ncmb", "--out", output.path + "2"])
    #expect(refused.status == 1, "\(refused.allOutput)")
    #expect(refused.standardError.contains("no entries for the backend's hosts"))
  }

  @Test("--verbose prints one line per exchange on standard error, never a secret")
  func verbose() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home, arguments: ["--verbose"])
    var stopped = false
    defer { if !stopped { kill(emulator.process.processIdentifier, SIGKILL) } }
    let apiKey = "AIzaVerboseTestKey-\(UUID().uuidString.prefix(8))"
    let account = uniqueAccount()
    baas.environment = [
      "FIREBASE_API_KEY": apiKey, "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
      "BAAS_PASSWORD": account.password,
    ]
    let signUp = try await baas.run(
      ["--verbose", "--backend", "firebase", "signup", "--email", account.email])
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    let token = try await baas.run(["--backend", "firebase", "token", "--refresh", "--verbose"])
    #expect(token.status == 0, "\(token.allOutput)")
    let bearer = token.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let quiet = try await baas.run(["--backend", "firebase", "whoami"])
    #expect(quiet.status == 0)
    #expect(!quiet.standardError.contains("baas: http:"))
    let server = await emulator.stop()
    stopped = true

    let clientLines = (signUp.standardError + token.standardError)
      .split(separator: "\n").filter { $0.hasPrefix("baas: http: ") }
    #expect(clientLines.count >= 2, "\(signUp.allOutput)\(token.allOutput)")
    let serverLines = server.standardError.split(separator: "\n")
      .filter { $0.hasPrefix("baas: http: ") }
    #expect(serverLines.count >= 2, "\(server.standardError)")
    // `GET …/ 200` is signup's check of the emulator's project (its readiness answer).
    for line in clientLines + serverLines {
      #expect(
        line.wholeMatch(of: /baas: http: (GET|POST) http:\/\/127\.0\.0\.1:\d+\/\S* \d{3} \d+ms/)
          != nil, "\(line)")
      for secret in [apiKey, account.password, bearer] where !secret.isEmpty {
        #expect(!line.contains(secret))
      }
      #expect(!line.contains("eyJ"))
    }
    #expect(clientLines.contains { $0.contains("key=<redacted>") })
    #expect(!signUp.standardOutput.contains("baas: http:"))
  }
}
