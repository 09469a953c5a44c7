import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Found by review: the recorder kept every interaction until the end of the run and
/// only then found that the cassette could never be loaded (a body that decodes past
/// 10 MiB, bodies past 64 MiB in total, a file past 64 MiB). What the loader refuses
/// (``DecodedSizeBudget``, the file size) the recorder now refuses as it records: a
/// request before it is sent, an answer as it arrives, naming the entry; it keeps
/// refusing, and an existing cassette file is never touched.
@Suite("Recording: refused as recorded when replay could not load it", .timeLimit(.minutes(2)))
struct RecordingBudgetTests {
  static let perBody = 10 << 20

  static func recorder(_ live: any HTTPTransport) -> RecordingTransport {
    RecordingTransport(
      wrapping: live, backend: "firebase", contract: "big", rules: .firebase, secrets: [],
      clock: Fixture.clock, seed: 1, provenance: .emulator)
  }

  static func post(_ body: Data = Data(), headers: HTTPFields = [:]) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: Fixture.url("https://api.example.com/upload"), headerFields: headers,
      body: body)
  }

  /// What `send` throws, or `nil`.
  static func refusal(_ recorder: RecordingTransport, _ request: HTTPRequest) async -> String? {
    do {
      _ = try await recorder.send(request)
      return nil
    } catch { return "\(error)" }
  }

  /// A gzip body decoding to 10 MiB + 1 byte (a few KB on the wire).
  static let gzipBomb =
    Data(
      base64Encoded: HARBuilder.gzipJSON(decodedSize: perBody + 1)) ?? Data()
  static let gzipHeaders: HTTPFields = [
    "Content-Type": "application/json", "Content-Encoding": "gzip",
  ]

  @Test("an answer that decodes past 10 MiB is refused as it arrives, naming the entry")
  func answerPastTheBodyCap() async throws {
    let live = StubTransport { _ in
      HTTPResponse(status: 200, headerFields: Self.gzipHeaders, body: Self.gzipBomb)
    }
    let recorder = Self.recorder(live)
    let message = try #require(await Self.refusal(recorder, Self.post()))
    #expect(message.contains("log.entries[0].response.content"), "\(message)")
    #expect(message.contains("10 MiB"), "\(message)")
  }

  @Test("a request that takes the bodies past 64 MiB is refused before it is sent")
  func requestPastTheFileBudget() async throws {
    let live = StubTransport { _ in
      HTTPResponse(
        status: 200, headerFields: ["Content-Type": "application/octet-stream"],
        body: Data(repeating: 0xFF, count: 34 << 20))
    }
    let recorder = Self.recorder(live)
    _ = try await recorder.send(Self.post())
    let upload = Self.post(
      Data(repeating: 0xFE, count: 31 << 20),
      headers: ["Content-Type": "application/octet-stream"])
    let message = try #require(await Self.refusal(recorder, upload))
    #expect(message.contains("log.entries[1].request.postData"), "\(message)")
    #expect(live.requests.count == 1)
  }

  @Test("bodies past 64 MiB in total are refused at the entry that passes, then every send")
  func fileBudget() async throws {
    // Binary answers (stored as base64): 3 × 22 MiB = 66 MiB decoded.
    let big = Data(repeating: 0xFF, count: 22 << 20)
    let live = StubTransport { _ in
      HTTPResponse(
        status: 200, headerFields: ["Content-Type": "application/octet-stream"], body: big)
    }
    let recorder = Self.recorder(live)
    for _ in 0..<2 { _ = try await recorder.send(Self.post()) }
    let message = try #require(await Self.refusal(recorder, Self.post()))
    #expect(message.contains("log.entries[2].response.content"), "\(message)")
    #expect(message.contains("64 MiB"), "\(message)")
    // The session is over: later sends are refused before they reach the network.
    #expect(await Self.refusal(recorder, Self.post()) != nil)
    #expect(live.requests.count == 3)
    #expect(throws: CassetteError.self) { _ = try recorder.cassette(variables: [:]) }
  }

  @Test("a cassette file past 64 MiB is refused as recorded (base64 grows bodies by a third)")
  func fileSize() async throws {
    // 2 × 26 MiB binary = 52 MiB decoded (within the budget), ~70 MiB as base64 text.
    let big = Data(repeating: 0xFF, count: 26 << 20)
    let live = StubTransport { _ in
      HTTPResponse(
        status: 200, headerFields: ["Content-Type": "application/octet-stream"], body: big)
    }
    let recorder = Self.recorder(live)
    _ = try await recorder.send(Self.post())
    let message = try #require(await Self.refusal(recorder, Self.post()))
    #expect(message.contains("log.entries[1]"), "\(message)")
    #expect(message.contains("64 MiB"), "\(message)")
  }

  @Test("a refused recording leaves an existing cassette file as it was")
  func existingFileUntouched() async throws {
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("big.har")
    let old = try Fixture.cassette([
      Interaction(request: Self.post(), response: HTTPResponse(status: 204))
    ]).encoded()
    try old.write(to: url)
    let live = StubTransport { _ in
      HTTPResponse(status: 200, headerFields: Self.gzipHeaders, body: Self.gzipBomb)
    }
    let session = try CassetteSession(
      mode: .record, cassetteURL: url, live: live,
      recording: RecordingConfiguration(
        backend: "firebase", contract: "big", rules: .firebase, clock: Fixture.clock, seed: 1))
    _ = try? await session.transport.send(Self.post())
    #expect(throws: CassetteError.self) { try session.finish(passed: true, variables: [:]) }
    #expect(try Data(contentsOf: url) == old)
  }
}
