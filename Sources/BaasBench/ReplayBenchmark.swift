import BackendHTTP
import Foundation
import HTTPReplay

/// Measures replay matching, for `baas bench`.
public enum ReplayBenchmark {
  /// One measurement.
  public struct Result: Sendable, Hashable {
    /// Entries in the cassette.
    public var entries: Int
    /// Requests replayed.
    public var requests: Int
    /// Building the transport (decoding and indexing every entry).
    public var setup: Duration
    /// Mean cost of one replayed request (redaction, key, lookup, consumption).
    public var perRequest: Duration
  }

  /// The mean cost of replaying one request from an in-memory cassette of `entries`
  /// distinct Firebase-style interactions (see ``measure(entries:requests:)``).
  /// - Throws: ``ReplayError`` if matching fails (a bug).
  public static func matchingCost(entries: Int, requests: Int = 1_000) async throws -> Duration {
    try await measure(entries: entries, requests: requests).perRequest
  }

  /// Builds a cassette of `entries` (≥ 1) distinct interactions, replays `requests` of them
  /// (capped at `entries`, spread over the whole cassette) and times both phases with
  /// `ContinuousClock`.
  /// - Throws: ``ReplayError`` if matching fails (a bug).
  public static func measure(entries: Int, requests: Int = 1_000) async throws -> Result {
    let count = max(1, entries)
    let clock = Date(timeIntervalSince1970: 1_767_225_600)
    let live = (0..<count).map { request(number: $0) }
    let harEntries = live.enumerated().map { index, request in
      HAREntry(
        Interaction(
          request: request,
          response: HTTPResponse(
            status: 200, headerFields: ["Content-Type": "application/json"],
            body: Data(#"{"kind":"lookup","users":[{"localId":"user-\#(index)"}]}"#.utf8))),
        startedAt: clock, order: index)
    }
    let cassette = Cassette(
      metadata: ReplayMetadata(
        backend: "firebase", contract: "benchmark", clock: clock, seed: 0,
        rules: .firebase,
        provenance: Provenance(kind: .documented, recordedAt: clock)),
      entries: harEntries)
    let timer = ContinuousClock()
    let setupStart = timer.now
    let transport = ReplayTransport(cassette: cassette)
    let setup = timer.now - setupStart
    let sent = min(max(1, requests), count)
    let stride = count / sent
    let start = timer.now
    for k in 0..<sent { _ = try await transport.send(live[k * stride]) }
    let total = timer.now - start
    return Result(entries: count, requests: sent, setup: setup, perRequest: total / sent)
  }

  private static func request(number: Int) -> HTTPRequest {
    HTTPRequest(
      method: .post,
      url: URL(
        string:
          "https://identitytoolkit.googleapis.com/v1/accounts:lookup?key=%3CFIREBASE_API_KEY_1%3E")
        ?? URL(fileURLWithPath: "/"),
      headerFields: ["Content-Type": "application/json"],
      body: Data(#"{"idToken":"<FIREBASE_ID_TOKEN_\#(number + 1)>","n":\#(number)}"#.utf8))
  }
}
