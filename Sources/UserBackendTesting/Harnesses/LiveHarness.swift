import BackendHTTP
import Foundation
import UserBackendContracts
import UserBackendKit
import UserBackends

/// Runs contracts against a live Firebase project or NCMB-compatible server over
/// `NetworkTransport.standard()` (`firebase-live`, `ncmb-live`), with the credentials of a
/// ``BackendConfiguration`` (usually from the environment: `FIREBASE_API_KEY`, or
/// `NCMB_APPLICATION_KEY` + `NCMB_CLIENT_KEY` + `NCMB_BASE_URL`).
///
/// Every run uses fresh variables, so runs never collide with earlier accounts. Time is
/// not controllable (``UserBackendContracts/ContractEnvironment/clock`` is `nil`) and SMS
/// codes are not visible, so contracts needing either are skipped.
public struct LiveHarness: ContractHarness {
  /// The backend and its credentials (firebase or ncmb).
  public let configuration: BackendConfiguration

  /// `<backend>-live`.
  public var name: String { configuration.backend.rawValue + "-live" }

  /// A harness over `configuration`.
  /// - Throws: ``BackendConfigurationError`` when the backend is the fake or a setting is
  ///   missing or invalid.
  public init(configuration: BackendConfiguration) throws {
    try configuration.validate()
    guard configuration.backend != .fake else {
      throw BackendConfigurationError(
        .invalidSetting, setting: "--backends",
        reason: "a live harness needs firebase or ncmb; use the fake harness for the fake")
    }
    self.configuration = configuration
  }

  /// A run with the proposed variables over a new network transport.
  /// - Throws: the adapter's initialisation error.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let transport = NetworkTransport.standard()
    let probe = try UserBackends.make(
      from: configuration, transport: transport, sessionStore: InMemorySessionStore())
    return LiveEnvironment(
      configuration: configuration, transport: transport, capabilities: probe.capabilities,
      variables: variables)
  }
}

/// One live run: backends over the network transport.
struct LiveEnvironment: ContractEnvironment {
  let configuration: BackendConfiguration
  let transport: any HTTPTransport
  let capabilities: Set<Capability>
  let variables: [String: String]
  /// Which user the server issued each session token to.
  let witness = SessionTokenWitness()

  /// Live time is not controllable.
  var clock: ManualClock? { nil }

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try UserBackends.make(
      from: configuration, transport: WitnessingTransport(wrapped: transport, witness: witness),
      sessionStore: sessionStore)
  }

  /// The JWT `sub` (Firebase), else the user the server answered with the session token
  /// (NCMB).
  func tokenSubject(_ token: String) async throws -> String? {
    if let subject = try? JSONWebToken(parsing: token).stringClaim("sub") { return subject }
    return witness.subject(of: token)
  }

  /// A live server sends real SMS; the code is not visible.
  func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }

  /// A live server sends real email; the codes are not visible.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? { nil }

  func finish(passed: Bool) async throws {}
}
