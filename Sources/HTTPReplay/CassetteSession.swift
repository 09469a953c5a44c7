import BackendHTTP
import Foundation
import UserBackendKit

/// What a record run writes into the cassette besides the interactions.
public struct RecordingConfiguration: Sendable, Hashable {
  /// `"firebase"`, `"ncmb"`, …
  public var backend: String
  /// The contract's name.
  public var contract: String
  /// Redaction and matching rules.
  public var rules: RedactionRules
  /// The run's secret values (API key, client key, passwords); checked by the leak scan,
  /// never stored.
  public var secrets: [String]
  /// The clock the run starts at (stored as `_replay.clock`).
  public var clock: Date
  /// The run's seed.
  public var seed: UInt64
  /// `.live` or `.emulator`.
  public var provenance: Provenance.Kind
  /// A link to the source, if any.
  public var source: String?

  /// A configuration.
  public init(
    backend: String, contract: String, rules: RedactionRules, secrets: [String] = [],
    clock: Date, seed: UInt64, provenance: Provenance.Kind = .live, source: String? = nil
  ) {
    self.backend = backend
    self.contract = contract
    self.rules = rules
    self.secrets = secrets
    self.clock = clock
    self.seed = seed
    self.provenance = provenance
    self.source = source
  }
}

/// Errors choosing a transport for a mode. The description names only the mode
/// (`SecretFreeDescription`).
public enum CassetteSessionError: Error, Sendable, Hashable, CustomStringConvertible,
  SecretFreeDescription
{
  /// The mode sends requests to the backend but no live transport was given.
  case liveTransportRequired(ReplayMode)

  /// Names the mode.
  public var description: String {
    switch self {
    case .liveTransportRequired(let mode):
      "replay mode \(mode.rawValue) needs a live transport (credentials / backend URL)"
    }
  }
}

/// The transport for one contract run in a given ``ReplayMode``, and what to do at its end.
///
/// A harness opens a session, builds its backend on ``transport`` and a `ManualClock`
/// starting at ``clock`` (seeding its random values from ``seed``), uses ``variables`` when
/// replaying, and calls ``finish(passed:variables:)`` at the end:
///
/// | mode | transport | finish |
/// |---|---|---|
/// | `replay` | ``ReplayTransport`` (cassette must exist) | unused entries fail |
/// | `record` | ``RecordingTransport`` around `live` | writes the cassette if passed |
/// | `recordMissing` | replay if the file exists, else record | as the chosen mode |
/// | `live` | `live` | nothing |
/// | `verify` | ``VerifyingTransport`` around `live` | shape drift fails |
public final class CassetteSession: Sendable {
  /// The mode asked for.
  public let requestedMode: ReplayMode
  /// The mode in effect (`recordMissing` resolves to `replay` or `record`).
  public let mode: ReplayMode
  /// Where the cassette lives.
  public let cassetteURL: URL
  /// The transport to build the backend on.
  public let transport: any HTTPTransport
  /// The clock to start at: the cassette's when replaying or verifying, else the
  /// configuration's.
  public let clock: Date
  /// The seed: the cassette's when replaying or verifying, else the configuration's.
  public let seed: UInt64
  /// The recorded variables when replaying (use these instead of fresh ones), else `nil`.
  public let variables: [String: String]?
  private let replay: ReplayTransport?
  private let recorder: RecordingTransport?
  private let verifier: VerifyingTransport?
  private let secrets: [String]

  /// Opens a session.
  /// - Parameters:
  ///   - mode: usually ``ReplayMode/fromEnvironment(_:)``.
  ///   - cassetteURL: `Recordings/<backend>/<contract>.har`.
  ///   - live: the network (or emulator) transport; required for every mode but `replay`
  ///     (and `recordMissing` with an existing cassette).
  ///   - recording: metadata for a new cassette (its `secrets` are also scanned for).
  ///   - requestVerifier: checks each live request in replay (e.g. NCMB signatures).
  /// - Throws: ``CassetteError`` (missing or malformed cassette),
  ///   ``CassetteSessionError/liveTransportRequired(_:)``.
  public init(
    mode requestedMode: ReplayMode, cassetteURL: URL, live: (any HTTPTransport)?,
    recording: RecordingConfiguration,
    requestVerifier: (@Sendable (HTTPRequest) throws -> Void)? = nil
  ) throws {
    self.requestedMode = requestedMode
    self.cassetteURL = cassetteURL
    secrets = recording.secrets
    var mode = requestedMode
    if mode == .recordMissing {
      mode = FileManager.default.fileExists(atPath: cassetteURL.path) ? .replay : .record
    }
    self.mode = mode
    func requireLive() throws -> any HTTPTransport {
      guard let live else { throw CassetteSessionError.liveTransportRequired(requestedMode) }
      return live
    }
    switch mode {
    case .replay, .recordMissing:
      let cassette = try Cassette.load(from: cassetteURL)
      let replay = ReplayTransport(cassette: cassette, requestVerifier: requestVerifier)
      (transport, clock, seed, variables) = (
        replay, cassette.clock, cassette.seed, cassette.variables
      )
      (self.replay, recorder, verifier) = (replay, nil, nil)
    case .record:
      let recorder = RecordingTransport(
        wrapping: try requireLive(), backend: recording.backend, contract: recording.contract,
        rules: recording.rules, secrets: recording.secrets, clock: recording.clock,
        seed: recording.seed, provenance: recording.provenance, source: recording.source)
      (transport, clock, seed, variables) = (recorder, recording.clock, recording.seed, nil)
      (replay, self.recorder, verifier) = (nil, recorder, nil)
    case .live:
      (transport, clock, seed, variables) = (
        try requireLive(), recording.clock, recording.seed, nil
      )
      (replay, recorder, verifier) = (nil, nil, nil)
    case .verify:
      let cassette = try Cassette.load(from: cassetteURL)
      let verifier = try VerifyingTransport(live: try requireLive(), cassette: cassette)
      (transport, clock, seed, variables) = (verifier, cassette.clock, cassette.seed, nil)
      (replay, recorder, self.verifier) = (nil, nil, verifier)
    }
  }

  /// A stopped clock at ``clock``, for the backend under test.
  public func makeClock() -> ManualClock { ManualClock(clock) }

  /// Ends the run.
  /// - replay: throws ``ReplayError/unusedEntries(_:)`` when the run passed but entries
  ///   were left (a failed run already reports its own error).
  /// - record: writes the cassette (leak scan first) only when the run passed.
  /// - verify: throws ``ReplayError/drift(_:)`` when shapes differ.
  /// - Parameter variables: the run's variables, stored in a new cassette.
  /// - Throws: ``ReplayError`` or ``CassetteError``.
  public func finish(passed: Bool, variables: [String: String]) throws {
    if let replay, passed { try replay.assertAllUsed() }
    if let recorder, passed {
      try recorder.cassette(variables: variables).write(to: cassetteURL, secrets: secrets)
    }
    if let verifier { try verifier.assertNoDrift() }
  }
}
