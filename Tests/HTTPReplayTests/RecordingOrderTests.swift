import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// The order rule (docs/cassettes.md §7): entries are written in the order their requests
/// reached the recorder, and that is the order their values were aliased. Found by
/// review: the recorder took an entry's place and redacted its request in two steps, so
/// two concurrent requests could take places 0 and 1 and be aliased 1 and 0
/// (`<PASSWORD_2>` stored before `<PASSWORD_1>`); a replay sending them in the recorded
/// order then aliased them the other way round and matched neither.
@Suite("Recording: entries in the order requests arrived", .timeLimit(.minutes(2)))
struct RecordingOrderTests {
  static func signUp(_ index: Int) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: Fixture.url("https://api.example.com/users"),
      headerFields: ["Content-Type": "application/json"],
      body: Data(#"{"password":"Concurrent-Pw-\#(index)-x9","n":\#(index)}"#.utf8))
  }

  @Test("concurrent requests: the n-th entry holds the n-th alias, and replay in order matches")
  func aliasesFollowEntries() async throws {
    for round in 0..<20 {
      let live = StubTransport { request in
        // Answers come back in a different order from the requests.
        for _ in 0..<(request.body.count % 3) { await Task.yield() }
        return HTTPResponse(
          status: 200, headerFields: ["Content-Type": "application/json"], body: Data("{}".utf8))
      }
      let recorder = RecordingTransport(
        wrapping: live, backend: "firebase", contract: "order", rules: .firebase, secrets: [],
        clock: Fixture.clock, seed: 1, provenance: .emulator)
      let count = 48
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<count {
          group.addTask { _ = try await recorder.send(Self.signUp(index)) }
        }
        try await group.waitForAll()
      }
      let cassette = try recorder.cassette(variables: [:])
      let aliases = try cassette.interactions().map { interaction in
        (Fixture.jsonObject(interaction.request.body)["password"] as? String) ?? ""
      }
      let expected = (1...count).map { "<PASSWORD_\($0)>" }
      #expect(aliases == expected, "round \(round)")
      if aliases != expected { return }
      // Replaying the requests in the recorded order matches every entry.
      let order = try cassette.interactions().map {
        (Fixture.jsonObject($0.request.body)["n"] as? Int) ?? -1
      }
      let replay = ReplayTransport(cassette: cassette)
      for index in order { _ = try await replay.send(Self.signUp(index)) }
      try replay.assertAllUsed()
    }
  }
}
