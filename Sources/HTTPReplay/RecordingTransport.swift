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
///
/// Size: what the loader refuses (``DecodedSizeBudget``: a content-coded body that decodes
/// past 10 MiB, bodies past 64 MiB in total; a file past 64 MiB) is refused as it is
/// recorded, a request before it is sent and an answer as it arrives, with
/// ``CassetteError/tooLargeToRecord(field:reason:)``; from then on every send is refused
/// before it reaches the network and ``cassette(variables:)`` throws the same error, so
/// nothing is written (an existing cassette stays as it is).
public final class RecordingTransport: HTTPTransport {
  /// The live transport.
  public let live: any HTTPTransport
  /// The redactor (its rules are stored in the cassette).
  public let redactor: Redactor
  private let template: ReplayMetadata
  private let secrets: [String]
  private let clock: Date
  private let state = LockedValue(State())

  private struct State {
    var next = 0
    var recorded: [(order: Int, entry: HAREntry)] = []
    /// The decoded bytes the recorded bodies may still take (the loader's budget).
    var budget = DecodedSizeBudget()
    /// The encoded size of the recorded entries, each encoded on its own: less than the
    /// file they make, which also nests and indents them.
    var encodedBytes = 0
    /// Why the session can no longer be written, once it cannot.
    var refusal: CassetteError?

    /// Takes `body`'s decoded size from the budget, as ``DecodedSizeBudget/check(_:)``
    /// counts it when the cassette is loaded.
    mutating func count(
      text: String?, encoding: String?, headers: [HARNameValue], field: String
    ) throws(CassetteError) {
      do throws(ContentCoding.Failure) {
        try budget.count(text: text, encoding: encoding, headers: headers)
      } catch {
        let reason =
          switch error {
          case .fileTooLarge:
            "the recorded bodies decode to more than \(DecodedSizeBudget.perFile >> 20) MiB "
              + "in total, the most a cassette holds to load"
          default: error.description
          }
        try refuse(.tooLargeToRecord(field: field, reason: reason))
      }
    }

    /// Remembers `error`, drops what was recorded (it can never be written) and throws.
    mutating func refuse(_ error: CassetteError) throws(CassetteError) {
      refusal = error
      recorded = []
      throw error
    }
  }

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
  /// - Throws: ``CassetteError/tooLargeToRecord(field:reason:)`` when the interaction
  ///   would make a cassette the loader refuses (before sending, when the request does, or
  ///   once a refusal was made); otherwise whatever the live transport throws (nothing is
  ///   recorded then).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let redactor = redactor
    let (order, redactedRequest) = try state.withLock {
      state throws(CassetteError) -> (Int, HTTPRequest) in
      if let refusal = state.refusal { throw refusal }
      // The place and the redaction together: the entries' order is the aliases' order.
      let order = state.next
      state.next += 1
      let redacted = redactor.redact(request)
      let postData = HAREntry.postData(for: redacted)
      try state.count(
        text: postData?.text, encoding: postData?.encoding,
        headers: HAREntry.nameValues(redacted.headerFields),
        field: CassetteLocation.entry(order, "request.postData"))
      return (order, redacted)
    }
    let response = try await live.send(request)
    let entry = HAREntry(
      Interaction(request: redactedRequest, response: redactor.redact(response)),
      startedAt: clock, order: order)
    let size = (try? Self.encoder.encode(entry).count) ?? 0
    try state.withLock { state throws(CassetteError) in
      if let refusal = state.refusal { throw refusal }
      try state.count(
        text: entry.response.content.text, encoding: entry.response.content.encoding,
        headers: entry.response.headers,
        field: CassetteLocation.entry(order, "response.content"))
      state.encodedBytes += size
      if state.encodedBytes > BoundedFileRead.largeFileLimit {
        try state.refuse(
          .tooLargeToRecord(
            field: CassetteLocation.entry(order),
            reason: "the cassette would be more than \(BoundedFileRead.largeFileLimit >> 20) "
              + "MiB (\(BoundedFileRead.largeFileLimit) bytes), the largest file the loader "
              + "reads"))
      }
      state.recorded.append((order, entry))
    }
    return response
  }

  /// Entries encoded as ``Cassette/encoded()`` encodes them.
  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// The number of interactions recorded so far.
  public var interactionCount: Int { state.withLock { $0.recorded.count } }

  /// The cassette of everything recorded so far, in request order, with `variables`
  /// (values the redactor has aliased are replaced by their aliases).
  /// - Throws: ``CassetteError/tooLargeToRecord(field:reason:)`` once the recording was
  ///   refused; ``CassetteError/leakDetected(_:)`` or ``CassetteError/lintFailed(_:)`` when
  ///   the cassette still contains a secret or a secret shape, in any encoding.
  public func cassette(variables: [String: String]) throws -> Cassette {
    let (refusal, recorded) = state.withLock { ($0.refusal, $0.recorded) }
    if let refusal { throw refusal }
    var metadata = template
    metadata.variables = variables.mapValues { redactor.redactValue($0) }
    let entries = recorded.sorted { $0.order < $1.order }.enumerated().map { position, item in
      var entry = item.entry
      entry.order = position
      return entry
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
