import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("A cassette mismatch keeps its diagnostics through the adapter", .timeLimit(.minutes(2)))
struct ReplayDiagnosticsTests {
  @Test("signing in a user the cassette did not record names the differing field")
  func mismatchNamesTheField() async throws {
    let clock = ManualClock(Fixture.start)
    let recorder = RecordingTransport(
      wrapping: Fixture.server(clock: clock), backend: "firebase", contract: "diagnostics",
      rules: .firebase, secrets: [Fixture.apiKey, "secret1"], clock: Fixture.start, seed: 1)
    let recording = try Fixture.backend(recorder, clock: clock)
    _ = try await recording.signIn(.email("alice@example.com", password: "secret1"))
    let cassette = try recorder.cassette(variables: [:])

    let replay = try Fixture.backend(ReplayTransport(cassette: cassette), clock: clock)
    let error = try await #require(throws: UserBackendError.self) {
      try await replay.signIn(.email("bob@example.com", password: "secret1"))
    }
    #expect(error.code.name == "network")
    #expect(error.message.contains("no unused recorded interaction matches"))
    #expect(error.message.contains("body.email"))
    #expect(error.message.contains("bob@example.com"))
    #expect(!error.message.contains("secret1"))
    #expect(!error.message.contains(Fixture.apiKey))
  }
}
