import BackendHTTP
import Foundation
import UserBackendKit

/// Answers requests from a cassette and never touches the network (replay mode).
///
/// Each live request first goes through `requestVerifier` (as sent, e.g. the NCMB adapter's
/// signature check with the replay key), then through the cassette's rules (the same
/// redaction as at record time; idempotent on the aliases replayed responses handed out),
/// and is matched on its canonical key (method, host without scheme or port, path, sorted
/// query, canonical JSON or form body, the rules' `matchHeaders`): a dictionary of key -> queue of
/// unused entries, so matching costs O(1) per request whatever the cassette's size.
/// Identical requests get their recorded responses in recorded order (first in, first
/// out, each entry used once); requests with different keys may arrive in any order and
/// concurrently.
public final class ReplayTransport: HTTPTransport {
  /// The cassette being replayed.
  public let cassette: Cassette
  private let requestVerifier: (@Sendable (HTTPRequest) throws -> Void)?
  private let redactor: Redactor
  private let shapes: [RequestShape]
  private let responses: [HTTPResponse]
  private let loadError: CassetteError?
  private let state: LockedValue<State>

  private struct Queue {
    var items: [Int]
    var head = 0
  }

  private struct State {
    var queues: [String: Queue]
    var used: [Bool]
  }

  /// A transport replaying `cassette`.
  /// - Parameters:
  ///   - requestVerifier: runs on each live request before redaction; what it throws is
  ///     thrown by ``send(_:)`` (no entry is consumed).
  ///   - knownAliases: live value -> alias pairs to seed the redactor with (e.g. the fake
  ///     API key -> `<FIREBASE_API_KEY_1>`); usually unnecessary, since aliases are numbered
  ///     by first appearance in both runs.
  public init(
    cassette: Cassette, requestVerifier: (@Sendable (HTTPRequest) throws -> Void)? = nil,
    knownAliases: [String: String] = [:]
  ) {
    self.cassette = cassette
    self.requestVerifier = requestVerifier
    redactor = Redactor(rules: cassette.rules, knownAliases: knownAliases)
    var shapes: [RequestShape] = []
    var responses: [HTTPResponse] = []
    var loadError: CassetteError?
    var queues: [String: Queue] = [:]
    // Stored requests go through the rules too: a no-op for recorded cassettes, and it
    // normalises hand-written ("documented") ones the same way as live requests.
    let storedRedactor = Redactor(rules: cassette.rules)
    do {
      for (index, interaction) in try cassette.interactions().enumerated() {
        let shape = RequestShape(
          storedRedactor.redact(interaction.request), matchHeaders: cassette.rules.matchHeaders)
        shapes.append(shape)
        responses.append(interaction.response)
        queues[shape.key, default: Queue(items: [])].items.append(index)
      }
    } catch let error as CassetteError {
      loadError = error
    } catch {
      loadError = .malformed(field: CassetteLocation.entries, reason: "unreadable")
    }
    self.shapes = shapes
    self.responses = responses
    self.loadError = loadError
    state = LockedValue(State(queues: queues, used: Array(repeating: false, count: shapes.count)))
  }

  /// The recorded response for `request`.
  /// - Throws: whatever `requestVerifier` throws; ``ReplayError/noMatch(request:key:nearest:)``
  ///   when no unused entry matches; ``ReplayError/badCassette(_:)`` for an undecodable
  ///   cassette; `CancellationError` when the task is cancelled.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    if let loadError { throw ReplayError.badCassette(loadError) }
    try requestVerifier?(request)
    let shape = RequestShape(redactor.redact(request), matchHeaders: cassette.rules.matchHeaders)
    let index: Int? = state.withLock { state in
      guard var queue = state.queues[shape.key], queue.head < queue.items.count else {
        return nil
      }
      let index = queue.items[queue.head]
      queue.head += 1
      state.queues[shape.key] = queue
      state.used[index] = true
      return index
    }
    guard let index else {
      throw ReplayError.noMatch(request: shape.summary, key: shape.key, nearest: nearest(to: shape))
    }
    return responses[index]
  }

  /// The number of entries not yet used.
  public var unusedCount: Int { state.withLock { $0.used.filter { !$0 }.count } }

  /// Checks that every recorded entry was requested.
  /// - Throws: ``ReplayError/unusedEntries(_:)`` listing each unused entry.
  public func assertAllUsed() throws {
    if let loadError { throw ReplayError.badCassette(loadError) }
    let unused = state.withLock { state in state.used.indices.filter { !state.used[$0] } }
    guard unused.isEmpty else {
      throw ReplayError.unusedEntries(
        unused.map { EntryDifference(entryIndex: $0, summary: shapes[$0].summary, differences: []) }
      )
    }
  }

  /// Up to three unused entries closest to `shape` (fewest differing fields; method, host
  /// and path weigh more), with their differences.
  private func nearest(to shape: RequestShape) -> [EntryDifference] {
    let used = state.withLock { $0.used }
    var scored: [(score: Int, index: Int, differences: [FieldDifference])] = []
    for index in shapes.indices where !used[index] {
      let differences = shapes[index].differences(from: shape)
      let score = differences.reduce(0) { total, difference in
        total + (["method", "host", "path"].contains(difference.field) ? 10 : 1)
      }
      scored.append((score, index, differences))
    }
    scored.sort { ($0.score, $0.index) < ($1.score, $1.index) }
    return scored.prefix(3).map {
      EntryDifference(
        entryIndex: $0.index, summary: shapes[$0.index].summary, differences: $0.differences)
    }
  }
}
