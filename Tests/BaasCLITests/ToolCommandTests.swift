import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The repository root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

@Suite("baas verify, ncmb sign, record and cassette commands", .timeLimit(.minutes(10)))
struct ToolCommandTests {
  @Test("ncmb sign reproduces the documented signature (docs/wire/ncmb.md §2)")
  func ncmbSignKnownAnswer() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let environment = [
      "NCMB_APPLICATION_KEY": "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56",
      "NCMB_CLIENT_KEY": "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75",
    ]
    let result = try await baas.run(
      [
        "ncmb", "sign", "GET",
        "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass?where=%7B%22testKey%22%3A%22testValue%22%7D",
        "--timestamp", "2013-12-02T02:44:35.452Z",
      ], environment: environment)
    #expect(result.status == 0, "\(result.allOutput)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains("X-NCMB-Signature: AltGkQgXurEV7u0qMd+87ud7BKuueldoCjaMgVc9Bes="))
    #expect(lines.contains("X-NCMB-Timestamp: 2013-12-02T02:44:35.452Z"))
    #expect(!result.allOutput.contains(environment["NCMB_CLIENT_KEY"]!))

    let missing = try await baas.run(["ncmb", "sign", "GET", "/2013-09-01/users"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("NCMB_APPLICATION_KEY"))
  }

  @Test("verify runs the contracts offline and exits 0; --format json is one report")
  func verify() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = repositoryRoot.appendingPathComponent("Contracts").path
    let text = try await baas.run(["verify", "--contracts", contracts], timeout: 300)
    #expect(text.status == 0, "\(text.allOutput)")
    #expect(text.standardOutput.contains("0 failed"))
    let json = try await baas.run(
      ["verify", "--contracts", contracts, "--format", "json", "--backends", "fake"],
      timeout: 300)
    #expect(json.status == 0)
    _ = try json.json()
    let unknown = try await baas.run(["verify", "--backends", "parse"])
    #expect(unknown.status == 2)
    let noContracts = try await baas.run(
      ["verify", "--contracts", baas.home.appendingPathComponent("none").path])
    #expect(noContracts.status == 2)
  }

  @Test("record against the emulator writes cassettes that pass cassette lint")
  func recordAndLint() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    let apiKey = "AIzaRecordTestKey-\(UUID().uuidString.prefix(8))"
    baas.environment = [
      "FIREBASE_API_KEY": apiKey, "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let out = baas.home.appendingPathComponent("Recordings")
    let record = try await baas.run(
      [
        "record", "--backend", "firebase", "--out", out.path,
        "--contracts", repositoryRoot.appendingPathComponent("Contracts").path,
        "--only", "sign-in,sign-up-then-current-user",
      ], timeout: 120)
    #expect(record.status == 0, "\(record.allOutput)")
    let cassette = out.appendingPathComponent("firebase/sign-in.har")
    let data = try Data(contentsOf: cassette)
    #expect(!String(decoding: data, as: UTF8.self).contains(apiKey))
    #expect(String(decoding: data, as: UTF8.self).contains("\"emulator\""))

    let lint = try await baas.run(["cassette", "lint", out.path])
    #expect(lint.status == 0, "\(lint.allOutput)")
    #expect(lint.standardOutput.contains("2 cassettes checked"))

    // Plant the API key in a copy: lint finds it without printing it.
    let leaky = baas.home.appendingPathComponent("Leaky")
    try FileManager.default.createDirectory(at: leaky, withIntermediateDirectories: true)
    let text = String(decoding: data, as: UTF8.self)
      .replacingOccurrences(of: "\"emulator\"", with: "\"emulator\", \"note\": \"\(apiKey)\"")
    try Data(text.utf8).write(to: leaky.appendingPathComponent("sign-in.har"))
    let leak = try await baas.run(["cassette", "lint", leaky.path])
    #expect(leak.status == 1, "\(leak.allOutput)")
    #expect(!leak.allOutput.contains(apiKey))

    let result = await emulator.stop()
    stopped = true
    #expect(result.status == 0)
  }

  /// The README's "record against a running emulator" command, as written there: every
  /// contract but the one `--skip` names records and the command exits 0.
  @Test("record over HTTP with --skip id-token-forced-refresh exits 0; --skip checks names")
  func recordOverHTTPAsTheReadmeSays() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "FIREBASE_API_KEY": "any-value",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
      // The user's document needs the project (Firestore's URL names it).
      "FIREBASE_PROJECT_ID": "demo-project",
    ]
    let out = baas.home.appendingPathComponent("emulator-http-cassettes")
    let contracts = repositoryRoot.appendingPathComponent("Contracts").path
    let record = try await baas.run(
      [
        "record", "--backend", "firebase", "--out", out.path, "--contracts", contracts,
        "--skip", "id-token-forced-refresh",
      ], timeout: 300)
    #expect(record.status == 0, "\(record.allOutput)")
    #expect(record.standardOutput.contains(" 0 failed"), "\(record.standardOutput)")
    let skipped = out.appendingPathComponent("firebase/id-token-forced-refresh.har")
    #expect(!FileManager.default.fileExists(atPath: skipped.path))
    #expect(
      FileManager.default.fileExists(
        atPath: out.appendingPathComponent("firebase/sign-in.har").path))

    let unknown = try await baas.run(
      ["record", "--backend", "firebase", "--contracts", contracts, "--skip", "no-such-contract"])
    #expect(unknown.status == 2, "\(unknown.allOutput)")
    #expect(unknown.allOutput.contains("no-such-contract"))

    let result = await emulator.stop()
    stopped = true
    #expect(result.status == 0)
  }

  @Test("cassette import redacts a HAR export's tokens")
  func importHAR() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let token = "ya29.\(UUID().uuidString)-refresh-token-value"
    let har = """
      {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
        {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1,
         "request": {"method": "POST",
           "url": "https://securetoken.googleapis.com/v1/token?key=test-key",
           "httpVersion": "HTTP/1.1", "cookies": [], "queryString": [],
           "headers": [{"name": "Content-Type", "value": "application/json"}],
           "postData": {"mimeType": "application/json",
             "text": "{\\"grant_type\\":\\"refresh_token\\",\\"refresh_token\\":\\"\(token)\\"}"},
           "headersSize": -1, "bodySize": -1},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
           "cookies": [], "headers": [{"name": "Content-Type", "value": "application/json"}],
           "content": {"size": 2, "mimeType": "application/json", "text": "{}"},
           "redirectURL": "", "headersSize": -1, "bodySize": -1},
         "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
      """
    let input = baas.home.appendingPathComponent("export.har")
    try Data(har.utf8).write(to: input)
    let output = baas.home.appendingPathComponent("imported.har")
    let result = try await baas.run(
      ["cassette", "import", input.path, "--backend", "firebase", "--out", output.path])
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardError.contains("wrote 1 interaction to"), "\(result.standardError)")
    let written = try String(contentsOf: output, encoding: .utf8)
    #expect(!written.contains(token))
    #expect(written.contains("_replay"))
    #expect(!result.allOutput.contains(token))

    let bad = try await baas.run(["cassette", "import", input.path, "--backend", "parse"])
    #expect(bad.status == 2)
  }
}
