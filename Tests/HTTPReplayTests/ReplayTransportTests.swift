import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

@Suite("Replay", .timeLimit(.minutes(2)))
struct ReplayTransportTests {
  private static func get(_ path: String, _ headers: HTTPFields = [:]) -> HTTPRequest {
    HTTPRequest(
      method: .get, url: Fixture.url("https://api.example.com\(path)"), headerFields: headers)
  }

  private static func ok(_ text: String) -> HTTPResponse {
    HTTPResponse(status: 200, headerFields: ["Content-Type": "text/plain"], body: Data(text.utf8))
  }

  @Test("record, write, load and replay a token chain with a fake API key")
  func recordThenReplay() async throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("firebase/refresh.har")
    let live = Fixture.firebaseLike()
    let recorder = RecordingTransport(
      wrapping: live, backend: "firebase", contract: "refresh", rules: .firebase,
      secrets: [Fixture.apiKey, Fixture.password, Fixture.refreshToken], clock: Fixture.clock,
      seed: 99, provenance: .emulator)
    let signUp = try await recorder.send(
      Fixture.signUp(key: Fixture.apiKey, password: Fixture.password))
    let realToken = try #require(Fixture.jsonObject(signUp.body)["refreshToken"] as? String)
    _ = try await recorder.send(Fixture.refresh(key: Fixture.apiKey, refreshToken: realToken))
    try recorder.write(to: file, variables: ["password": Fixture.password])

    let cassette = try Cassette.load(from: file)
    #expect(cassette.clock == Fixture.clock)
    #expect(cassette.seed == 99)
    let replay = ReplayTransport(cassette: cassette)
    let password = try #require(cassette.variables["password"])
    let replayedSignUp = try await replay.send(
      Fixture.signUp(key: "fake-replay-api-key", password: password))
    let aliasToken = try #require(
      Fixture.jsonObject(replayedSignUp.body)["refreshToken"] as? String)
    #expect(aliasToken == "<REFRESH_TOKEN_1>")
    let idToken = try #require(Fixture.jsonObject(replayedSignUp.body)["idToken"] as? String)
    #expect(try JSONWebToken(parsing: idToken).signature.isEmpty)
    let refreshed = try await replay.send(
      Fixture.refresh(key: "fake-replay-api-key", refreshToken: aliasToken))
    #expect(Fixture.jsonObject(refreshed.body)["user_id"] as? String == "uid-123")
    try replay.assertAllUsed()
    #expect(live.requests.count == 2)  // replay never reached the live service
  }

  @Test("identical requests get their recorded responses in order")
  func fifo() async throws {
    let replay = ReplayTransport(
      cassette: Fixture.cassette([
        Interaction(request: Self.get("/v"), response: Self.ok("first")),
        Interaction(request: Self.get("/other"), response: Self.ok("other")),
        Interaction(request: Self.get("/v"), response: Self.ok("second")),
        Interaction(request: Self.get("/v"), response: Self.ok("third")),
      ]))
    var bodies: [String] = []
    for _ in 0..<3 {
      bodies.append(String(decoding: try await replay.send(Self.get("/v")).body, as: UTF8.self))
    }
    #expect(bodies == ["first", "second", "third"])
    await #expect(throws: ReplayError.self) { _ = try await replay.send(Self.get("/v")) }
  }

  @Test("50 concurrent requests are each answered with their own response")
  func concurrent() async throws {
    var interactions: [Interaction] = []
    for index in 0..<50 {
      let request = HTTPRequest(
        method: .post, url: Fixture.url("https://api.example.com/items?i=\(index % 10)"),
        headerFields: ["Content-Type": "application/json"],
        body: Fixture.json(["n": index, "password": "pw-\(index)-secret"]))
      interactions.append(Interaction(request: request, response: Self.ok("answer-\(index)")))
    }
    // Record through a redactor so stored passwords are aliases, as a recorder writes them.
    let redactor = Redactor(rules: .firebase)
    let stored = interactions.map {
      Interaction(request: redactor.redact($0.request), response: $0.response)
    }
    let replay = ReplayTransport(cassette: Fixture.cassette(stored))
    let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for (index, interaction) in stored.enumerated() {
        group.addTask {
          let response = try await replay.send(interaction.request)
          return (index, String(decoding: response.body, as: UTF8.self))
        }
      }
      var results: [Int: String] = [:]
      for try await (index, body) in group { results[index] = body }
      return results
    }
    #expect(results.count == 50)
    #expect(results.allSatisfy { $0.value == "answer-\($0.key)" })
    try replay.assertAllUsed()
  }

  @Test("concurrent identical requests each get a different recorded response")
  func concurrentIdentical() async throws {
    let interactions = (0..<20).map {
      Interaction(request: Self.get("/same"), response: Self.ok("answer-\($0)"))
    }
    let replay = ReplayTransport(cassette: Fixture.cassette(interactions))
    let bodies = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<20 {
        group.addTask {
          String(decoding: try await replay.send(Self.get("/same")).body, as: UTF8.self)
        }
      }
      var bodies: [String] = []
      for try await body in group { bodies.append(body) }
      return bodies
    }
    #expect(Set(bodies) == Set((0..<20).map { "answer-\($0)" }))
    try replay.assertAllUsed()
  }

  @Test("an unmatched request names the differing field of the nearest entries")
  func mismatch() async throws {
    let recorded = HTTPRequest(
      method: .post,
      url: Fixture.url("https://api.example.com/v1/accounts:signInWithPassword?key=k"),
      headerFields: ["Content-Type": "application/json"],
      body: Fixture.json(["email": "alice@example.com", "returnSecureToken": true]))
    var live = recorded
    live.body = Fixture.json(["email": "bob@example.com", "returnSecureToken": true])
    let replay = ReplayTransport(
      cassette: Fixture.cassette([
        Interaction(request: recorded, response: Self.ok("a")),
        Interaction(request: Self.get("/unrelated"), response: Self.ok("b")),
      ]))
    do {
      _ = try await replay.send(live)
      Issue.record("expected noMatch")
    } catch ReplayError.noMatch(let request, _, let nearest) {
      #expect(request.contains("/v1/accounts:signInWithPassword"))
      let first = try #require(nearest.first)
      #expect(first.entryIndex == 0)
      #expect(first.differences.map(\.field) == ["body.email"])
      #expect(first.differences.first?.recorded == #""alice@example.com""#)
      #expect(first.differences.first?.live == #""bob@example.com""#)
      #expect(nearest.count == 2)
      let message = ReplayError.noMatch(request: request, key: "", nearest: nearest).description
      #expect(message.contains("body.email"))
    }
  }

  @Test("entries never requested fail assertAllUsed")
  func unused() async throws {
    let replay = ReplayTransport(
      cassette: Fixture.cassette([
        Interaction(request: Self.get("/a"), response: Self.ok("a")),
        Interaction(request: Self.get("/b"), response: Self.ok("b")),
      ]))
    _ = try await replay.send(Self.get("/a"))
    #expect(replay.unusedCount == 1)
    do {
      try replay.assertAllUsed()
      Issue.record("expected unusedEntries")
    } catch ReplayError.unusedEntries(let entries) {
      #expect(entries.map(\.entryIndex) == [1])
      #expect(entries.first?.summary == "GET api.example.com/b")
    }
  }

  @Test("the request verifier sees the live request before redaction and can reject it")
  func verifier() async throws {
    let seen = LockedValue<[String]>([])
    let replay = ReplayTransport(
      cassette: Fixture.cassette(
        [
          Interaction(
            request: Self.get("/x", ["X-NCMB-Signature": "<NCMB_SIGNATURE>"]),
            response: Self.ok("x"))
        ], rules: .ncmb),
      requestVerifier: { request in
        let signature = request.headerFields["X-NCMB-Signature"] ?? ""
        seen.withLock { $0.append(signature) }
        if signature != "good-signature" {
          throw HTTPTransportError.invalidRequest(reason: "bad signature")
        }
      })
    await #expect(throws: HTTPTransportError.invalidRequest(reason: "bad signature")) {
      _ = try await replay.send(Self.get("/x", ["X-NCMB-Signature": "forged"]))
    }
    #expect(replay.unusedCount == 1)
    let response = try await replay.send(Self.get("/x", ["X-NCMB-Signature": "good-signature"]))
    #expect(response.body == Data("x".utf8))
    #expect(seen.withLock { $0 } == ["forged", "good-signature"])
  }

  @Test("the session-token header takes part in matching")
  func semanticHeader() async throws {
    let replay = ReplayTransport(
      cassette: Fixture.cassette(
        [
          Interaction(
            request: Self.get("/me", ["X-NCMB-Apps-Session-Token": "<NCMB_SESSION_TOKEN_1>"]),
            response: Self.ok("me"))
        ], rules: .ncmb))
    do {
      _ = try await replay.send(
        Self.get("/me", ["X-NCMB-Apps-Session-Token": "<NCMB_SESSION_TOKEN_2>"]))
      Issue.record("expected noMatch")
    } catch ReplayError.noMatch(_, _, let nearest) {
      #expect(nearest.first?.differences.map(\.field) == ["header.x-ncmb-apps-session-token"])
    }
    let response = try await replay.send(
      Self.get("/me", ["X-NCMB-Apps-Session-Token": "<NCMB_SESSION_TOKEN_1>", "User-Agent": "y"]))
    #expect(response.body == Data("me".utf8))
  }
}
