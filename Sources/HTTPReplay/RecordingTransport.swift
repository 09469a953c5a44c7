import BackendHTTP
import Foundation
import UserBackendKit

/// Sends requests through a live transport and records each interaction, redacted, for a
/// cassette (record mode).
///
/// The request is redacted as it arrives and the response as it returns, with one
/// ``Redactor`` for the whole session, so aliases are numbered by first appearance and a
/// token from a response that goes back into a later request gets the same alias. Failed
/// sends (no response) are not recorded. The live request itself is sent unchanged.
///
/// Order (docs/cassettes.md §7): an entry's place is the order its request reached the
/// recorder, taken together with the request's redaction, so entries and the aliases of
/// the values their requests carry run in the same order even when requests come
/// concurrently; answers may come back in any order, and each is aliased as it arrives.
public final class RecordingTransport: HTTPTransport {
  /// The live transport.
  public let live: any HTTPTransport
  /// The redactor (its rules are stored in the cassette).
  public let redactor: Redactor
  private let template: ReplayMetadata
  private let secrets: [String]
  private let clock: Date
  private let state = LockedValue<(next: Int, recorded: [(order: Int, interaction: Interaction)])>(
    (0, []))

  /// A recorder around `wrapping`.
  /// - Parameters:
  ///   - backend: `"firebase"`, `"ncmb"`, …; `contract`: the contract's name.
  ///   - rules: redaction and matching rules (``RedactionRules/firebase``, …).
  ///   - secrets: the run's secret values (API key, client key, passwords); the leak scan
  ///     checks for them when the cassette is built and written. Never stored.
  ///   - clock: the cassette clock (where replay's `ManualClock` will start).
  ///   - seed: the run's seed.
  ///   - provenance: `.live` (default) or `.emulator`; `source` an optional link.
  ///   - recordingStartedAt: the real time the run started, when it differs from `clock`;
  ///     JWT time claims shift by `clock - recordingStartedAt` so they stay relative to the
  ///     cassette clock. `nil` means no shift.
  public init(
    wrapping: any HTTPTransport, backend: String, contract: String, rules: RedactionRules,
    secrets: [String], clock: Date, seed: UInt64, provenance: Provenance.Kind = .live,
    source: String? = nil, recordingStartedAt: Date? = nil
  ) {
    live = wrapping
    redactor = Redactor(
      rules: rules,
      timeShift: recordingStartedAt.map { clock.timeIntervalSince($0) } ?? 0)
    template = ReplayMetadata(
      backend: backend, contract: contract, clock: clock, seed: seed, rules: rules,
      provenance: Provenance(kind: provenance, source: source, recordedAt: clock))
    self.secrets = secrets.filter { !$0.isEmpty }
    self.clock = clock
  }

  /// Sends `request` live and records the redacted interaction.
  /// - Throws: whatever the live transport throws (nothing is recorded then).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let redactor = redactor
    // The place and the redaction in one step, so the entries' order is the order their
    // requests' values were aliased in (docs/cassettes.md §7).
    let (order, redactedRequest) = state.withLock { state in
      defer { state.next += 1 }
      return (state.next, redactor.redact(request))
    }
    let response = try await live.send(request)
    let redactedResponse = redactor.redact(response)
    state.withLock {
      $0.recorded.append(
        (order, Interaction(request: redactedRequest, response: redactedResponse)))
    }
    return response
  }

  /// The number of interactions recorded so far.
  public var interactionCount: Int { state.withLock { $0.recorded.count } }

  /// The cassette of everything recorded so far, in request order, with `variables`
  /// (values the redactor has aliased are replaced by their aliases).
  /// - Throws: ``CassetteError/leakDetected(_:)`` or ``CassetteError/lintFailed(_:)`` when
  ///   the cassette still contains a secret or a secret shape, in any encoding.
  public func cassette(variables: [String: String]) throws -> Cassette {
    let recorded = state.withLock { $0.recorded }.sorted { $0.order < $1.order }
    var metadata = template
    metadata.variables = variables.mapValues { redactor.redactValue($0) }
    let entries = recorded.enumerated().map { position, item in
      HAREntry(item.interaction, startedAt: clock, order: position)
    }
    let cassette = Cassette(metadata: metadata, entries: entries)
    _ = try cassette.checkedData(secrets: secrets)
    return cassette
  }

  /// Builds the cassette and writes it to `url` (leak scan first).
  /// - Throws: ``CassetteError``.
  public func write(to url: URL, variables: [String: String]) throws {
    try cassette(variables: variables).write(to: url, secrets: secrets)
  }
}
