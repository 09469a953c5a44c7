import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import HTTPReplay
import UserBackendContracts
import UserBackendKit

/// Records one cassette per passed contract against the in-process emulator
/// (provenance `emulator`): `<outputDirectory>/<backend>/<contract>.har`, the cassettes the
/// `firebase-replay` and `ncmb-replay` harnesses read.
///
/// Recording is deterministic, so re-recording an unchanged contract rewrites the same
/// bytes:
/// - the clock is a `ManualClock` at 2026-01-01T00:00:00Z, shared by the emulator's store
///   and the adapter (so `controllableClock` contracts are recorded too); the store's
///   side also moves on by one second per request (`ServerClock`);
/// - the seed is ``WireBackend/seed(forContract:)``; it draws the contract's variables, the
///   store's account IDs and SMS codes, and NCMB's anonymous identities;
/// - requests go to the emulator one at a time, in arrival order, so concurrent identical
///   requests always get their answers in the same order;
/// - tokens and keys become aliases numbered by first appearance.
///
/// The SMS codes the store generated are kept in the cassette's variables under
/// `sms:<verification alias>` (see ``smsVariable(verificationID:)``). Secrets (the keys
/// and the contract's passwords) are checked by the leak scan before each write.
public struct EmulatorRecordingHarness: ContractHarness {
  /// The wire protocol to record.
  public let backend: WireBackend
  /// The root of the recordings; cassettes go to `<outputDirectory>/<backend>/`.
  public let outputDirectory: URL
  /// PBKDF2 rounds for the store.
  public var passwordHashIterations: Int

  /// `<backend>-record`.
  public var name: String { backend.rawValue + "-record" }

  /// A recorder writing under `outputDirectory`; 1 000 PBKDF2 rounds by default.
  public init(backend: WireBackend, outputDirectory: URL, passwordHashIterations: Int = 1_000) {
    self.backend = backend
    self.outputDirectory = outputDirectory
    self.passwordHashIterations = passwordHashIterations
  }

  /// The cassette file of `contract`.
  public func cassetteURL(for contract: String) -> URL {
    outputDirectory.appendingPathComponent(backend.rawValue, isDirectory: true)
      .appendingPathComponent("\(contract).har")
  }

  /// The prefix of the cassette variables that hold SMS codes.
  public static let smsVariablePrefix = "sms:"

  /// The variable name under which the SMS code of `verificationID` (as it appears in
  /// the cassette: its alias) is stored: `sms:<alias>`.
  public static func smsVariable(verificationID: String) -> String {
    smsVariablePrefix + verificationID
  }

  /// A recording run: seeded store, fixed clock, seeded variables (the proposals are
  /// ignored so that two recordings are identical).
  /// - Throws: `UserStoreError` (SQLite), the adapter's initialisation error.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let seed = WireBackend.seed(forContract: contract.name)
    let clock = ManualClock()
    let serverClock = ServerClock(base: clock)
    let store = try UserStore(
      path: ":memory:", passwordHashIterations: passwordHashIterations, clock: serverClock,
      randomness: .seeded(seed &+ 1))
    let emulator = BackendEmulator(store: store, projectID: WireBackend.projectID)
    let keys = WireBackend.Keys.emulator
    let recorder = RecordingTransport(
      wrapping: EmulatorTransport(emulator), backend: backend.rawValue,
      contract: contract.name, rules: backend.redactionRules,
      secrets: keys.secrets + RecordingHarness.passwords(in: contract), clock: clock.now(),
      seed: seed, provenance: .emulator)
    var generator = SeededVariableGenerator(seed: seed &+ 2)
    return EmulatorEnvironment(
      backend: backend, keys: keys,
      transport: SerialTransport(TickingTransport(wrapped: recorder, clock: serverClock)),
      store: store, adapterClock: clock,
      capabilities: try backend.capabilities(keys: keys).union([Contract.rawServerRequests]),
      variables: ContractVariables.propose(for: contract, using: &generator),
      uuids: WireBackend.uuidSource(seed: seed), server: nil,
      recording: EmulatorRecording(
        recorder: recorder, destination: cassetteURL(for: contract.name),
        secrets: keys.secrets + RecordingHarness.passwords(in: contract)))
  }
}

/// The recording side of an ``EmulatorEnvironment``: the recorder, where the cassette
/// goes, and the SMS codes handed out during the run.
final class EmulatorRecording: Sendable {
  let recorder: RecordingTransport
  let destination: URL
  let secrets: [String]
  private let codes = LockedValue<[String: String]>([:])

  init(recorder: RecordingTransport, destination: URL, secrets: [String]) {
    self.recorder = recorder
    self.destination = destination
    self.secrets = secrets
  }

  /// Remembers the SMS code given out for `verificationID` (the live value).
  func noteCode(_ code: String, for verificationID: String) {
    codes.withLock { $0[verificationID] = code }
  }

  /// Writes the cassette when `passed`: the run's variables plus one
  /// `sms:<verification alias>` entry per code handed out.
  /// - Throws: `CassetteError` (a leak, an I/O error).
  func finish(passed: Bool, variables: [String: String]) throws {
    guard passed else { return }
    var all = variables
    for (verificationID, code) in codes.withLock({ $0 }) {
      let alias = recorder.redactor.redactValue(verificationID)
      all[EmulatorRecordingHarness.smsVariable(verificationID: alias)] = code
    }
    try recorder.cassette(variables: all).write(to: destination, secrets: secrets)
  }
}
