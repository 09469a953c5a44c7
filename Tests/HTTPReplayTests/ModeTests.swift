import BackendHTTP
import Foundation
import HTTPReplay
import Testing

@Suite("Modes", .timeLimit(.minutes(2)))
struct ModeTests {
  @Test(
    "BAAS_REPLAY_MODE selects the mode; unset or unknown means replay",
    arguments: [
      ([:], ReplayMode.replay),
      (["BAAS_REPLAY_MODE": ""], .replay),
      (["BAAS_REPLAY_MODE": "record"], .record),
      (["BAAS_REPLAY_MODE": "record-missing"], .recordMissing),
      (["BAAS_REPLAY_MODE": "RECORD_MISSING"], .recordMissing),
      (["BAAS_REPLAY_MODE": "recordMissing"], .recordMissing),
      (["BAAS_REPLAY_MODE": "live"], .live),
      (["BAAS_REPLAY_MODE": "Verify"], .verify),
      (["BAAS_REPLAY_MODE": "reccord"], .replay),
    ] as [([String: String], ReplayMode)])
  func fromEnvironment(environment: [String: String], expected: ReplayMode) {
    #expect(ReplayMode.fromEnvironment(environment) == expected)
  }

  @Test("an unknown mode name is a parse error naming it")
  func parseError() {
    #expect(throws: ReplayMode.ParseError.unknownMode("reccord")) {
      try ReplayMode(parsing: "reccord")
    }
  }

  private func configuration() -> RecordingConfiguration {
    RecordingConfiguration(
      backend: "firebase", contract: "session", rules: .firebase,
      secrets: [Fixture.apiKey, Fixture.password], clock: Fixture.clock, seed: 5,
      provenance: .emulator)
  }

  @Test("recordMissing records when the cassette is missing, then replays it")
  func recordMissing() async throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("firebase/session.har")
    let live = Fixture.firebaseLike()

    let first = try CassetteSession(
      mode: .recordMissing, cassetteURL: file, live: live, recording: configuration())
    #expect(first.mode == .record)
    _ = try await first.transport.send(
      Fixture.signUp(key: Fixture.apiKey, password: Fixture.password))
    try first.finish(passed: true, variables: ["password": Fixture.password])
    #expect(FileManager.default.fileExists(atPath: file.path))

    let second = try CassetteSession(
      mode: .recordMissing, cassetteURL: file, live: nil, recording: configuration())
    #expect(second.mode == .replay)
    #expect(second.clock == Fixture.clock)
    #expect(second.makeClock().now() == Fixture.clock)
    #expect(second.seed == 5)
    let password = try #require(second.variables?["password"])
    _ = try await second.transport.send(Fixture.signUp(key: "fake-key", password: password))
    try second.finish(passed: true, variables: [:])
    #expect(live.requests.count == 1)
  }

  @Test("replay needs the cassette; live modes need a live transport")
  func sessionErrors() throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("missing.har")
    #expect(throws: CassetteError.notFound(path: file.path)) {
      _ = try CassetteSession(
        mode: .replay, cassetteURL: file, live: nil, recording: configuration())
    }
    #expect(throws: CassetteSessionError.liveTransportRequired(.record)) {
      _ = try CassetteSession(
        mode: .record, cassetteURL: file, live: nil, recording: configuration())
    }
  }

  @Test("a failed record run writes nothing")
  func failedRecord() async throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("x.har")
    let session = try CassetteSession(
      mode: .record, cassetteURL: file, live: Fixture.firebaseLike(), recording: configuration())
    _ = try await session.transport.send(
      Fixture.signUp(key: Fixture.apiKey, password: Fixture.password))
    try session.finish(passed: false, variables: [:])
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test("verify reports a changed value type but not changed values")
  func verifyDrift() async throws {
    let request = HTTPRequest(
      method: .post, url: Fixture.url("https://example.com/v1/token"),
      headerFields: ["Content-Type": "application/json"], body: Fixture.json(["a": 1]))
    let recorded = HTTPResponse(
      status: 200, headerFields: ["Content-Type": "application/json"],
      body: Fixture.json(["idToken": "old", "expiresIn": "3600", "ok": true]))
    let cassette = Fixture.cassette([
      Interaction(request: request, response: recorded),
      Interaction(request: request, response: recorded),
    ])
    let answers = [
      Fixture.json(["idToken": "new-value", "expiresIn": "7200", "ok": false]),
      Fixture.json(["idToken": "new-value", "expiresIn": 3600, "ok": true, "extra": [1]]),
    ]
    let counter = Counter()
    let live = StubTransport { _ in
      HTTPResponse(status: 200, body: answers[min(counter.next(), 1)])
    }
    let verifier = try VerifyingTransport(live: live, cassette: cassette)
    _ = try await verifier.send(request)
    #expect(verifier.drift.isEmpty)
    _ = try await verifier.send(request)
    #expect(verifier.drift.map(\.path) == ["body.expiresIn", "body.extra", "body.extra[]"])
    #expect(verifier.drift.first?.recorded == "string")
    #expect(verifier.drift.first?.live == "number")
    #expect(throws: ReplayError.self) { try verifier.assertNoDrift() }
  }
}
