import BackendHTTP
import Foundation
import HTTPReplay
import UserBackendContracts
import UserBackendKit
import UserBackends

/// A contract harness that runs each contract against a live Firebase or NCMB server (or
/// the local emulator) through a `RecordingTransport`, and writes one cassette per passed
/// contract: `<outputDirectory>/<backend>/<contract>.har` (see
/// `docs/cassettes.md`, the cassette format).
///
/// The backend runs on a `ManualClock` stopped at the recording's start, so NCMB timestamps
/// in the cassette equal the cassette clock and replay reproduces them exactly; time is
/// not controllable (``ContractEnvironment/clock`` is `nil`), so contracts that move the
/// clock are skipped. Secrets (the configured keys and the contract's passwords) are
/// redacted by the backend's rules, and the leak scan refuses to write a cassette that
/// still contains one.
public struct RecordingHarness: ContractHarness {
  /// `"firebase-record"` or `"ncmb-record"`.
  public let name: String
  /// The backend and its settings (firebase or ncmb).
  public let configuration: BackendConfiguration
  /// The root of the recordings; cassettes go to `<outputDirectory>/<backend>/`.
  public let outputDirectory: URL
  private let transport: any HTTPTransport

  /// A recorder for `configuration`'s backend.
  ///
  /// - Parameters:
  ///   - transport: the live transport (default `NetworkTransport.standard()`).
  /// - Throws: ``BackendConfigurationError`` when the backend is the fake (there is nothing
  ///   to record) or its settings are invalid.
  public init(
    configuration: BackendConfiguration, outputDirectory: URL,
    transport: any HTTPTransport = NetworkTransport.standard()
  ) throws {
    try configuration.validate()
    guard configuration.backend != .fake else {
      throw BackendConfigurationError(
        .invalidSetting, setting: "--backend",
        reason: "recording needs firebase or ncmb; the fake makes no HTTP requests")
    }
    self.configuration = configuration
    self.outputDirectory = outputDirectory
    self.transport = transport
    self.name = "\(configuration.backend.rawValue)-record"
  }

  /// The cassette file of `contract`.
  public func cassetteURL(for contract: String) -> URL {
    outputDirectory.appendingPathComponent(configuration.backend.rawValue, isDirectory: true)
      .appendingPathComponent("\(contract).har")
  }

  /// `emulator` when the server is the local emulator (a loopback host), else `live`.
  public var provenance: Provenance.Kind {
    let host: String?
    switch configuration.backend {
    case .firebase:
      host = configuration.firebase.emulatorHost.flatMap {
        try? BackendConfiguration.parseHostPort($0).host
      }
    case .ncmb, .fake:
      host = try? configuration.ncmbBaseURL().host
    }
    guard let host else { return .live }
    return URLLoaderSupport.isLoopback(host: host) ? .emulator : .live
  }

  /// A recording environment for one run of `contract`.
  /// - Throws: the backend's initialisation error.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let start = Date()
    let clock = ManualClock(start)
    let rules: RedactionRules = configuration.backend == .ncmb ? .ncmb : .firebase
    let recorder = RecordingTransport(
      wrapping: transport, backend: configuration.backend.rawValue, contract: contract.name,
      rules: rules, secrets: UserBackends.secrets(of: configuration) + Self.passwords(in: contract),
      clock: start, seed: UInt64.random(in: 0...UInt64.max), provenance: provenance)
    let probe = try await UserBackends.make(
      from: configuration, transport: recorder, sessionStore: InMemorySessionStore(),
      clock: clock)
    return RecordingEnvironment(
      configuration: configuration, recorder: recorder, backendClock: clock,
      capabilities: probe.capabilities.union([Contract.rawServerRequests]),
      variables: variables,
      destination: cassetteURL(for: contract.name))
  }

  /// The string values of `password` and `newPassword` fields anywhere in the contract.
  static func passwords(in contract: Contract) -> [String] {
    guard let data = try? JSONEncoder().encode(contract),
      let object = try? JSONSerialization.jsonObject(with: data)
    else { return [] }
    var found: [String] = []
    func walk(_ value: Any) {
      if let dictionary = value as? [String: Any] {
        for (key, nested) in dictionary {
          if key.lowercased().contains("password"), let text = nested as? String {
            found.append(text)
          } else {
            walk(nested)
          }
        }
      } else if let array = value as? [Any] {
        array.forEach(walk)
      }
    }
    walk(object)
    return found.filter { !$0.isEmpty && !$0.contains("{{") }
  }
}

/// One recorded run: backends over the recorder; the cassette is written when the run
/// passed.
struct RecordingEnvironment: ContractEnvironment {
  let configuration: BackendConfiguration
  let recorder: RecordingTransport
  let backendClock: ManualClock
  let capabilities: Set<Capability>
  let variables: [String: String]
  let destination: URL
  /// Which user the server issued each session token to.
  let witness = SessionTokenWitness()

  var clock: ManualClock? { nil }

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try await UserBackends.make(
      from: configuration, transport: WitnessingTransport(wrapped: recorder, witness: witness),
      sessionStore: sessionStore, clock: backendClock)
  }

  /// The JWT `sub` (Firebase), else the user the server answered with the session token
  /// (NCMB).
  func tokenSubject(_ token: String) async throws -> String? {
    if let subject = try? JSONWebToken(parsing: token).stringClaim("sub") { return subject }
    return witness.subject(of: token)
  }

  /// A live server sends real SMS; the code is not available to the harness.
  /// The environment's own read of `userID`'s document, through the recorder (so the
  /// cassette keeps it).
  /// - Throws: transport errors.
  func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
    try await configuration.rawDocumentRead(
      userID: userID, bearerToken: bearerToken, now: backendClock.now(), transport: recorder)
  }

  func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }

  /// A live server sends real email; the codes are not visible.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? { nil }

  /// Writes the cassette when the run passed (leak scan first).
  /// - Throws: `CassetteError` (a leak, an I/O error).
  func finish(passed: Bool) async throws {
    guard passed else { return }
    try FileManager.default.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try recorder.write(to: destination, variables: variables)
  }
}
