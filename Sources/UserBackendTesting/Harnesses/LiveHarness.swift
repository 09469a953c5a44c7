import BackendHTTP
import Foundation
import NCMBUserBackend
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
    let probe = try await UserBackends.make(
      from: configuration, transport: transport, sessionStore: InMemorySessionStore())
    return LiveEnvironment(
      configuration: configuration, transport: transport,
      capabilities: probe.capabilities.union([Contract.rawServerRequests]),
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
  /// The token refresh requests every backend of this run sent.
  let refreshes = RefreshCounter()

  /// Live time is not controllable.
  var clock: ManualClock? { nil }

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try await UserBackends.make(
      from: configuration,
      transport: RefreshCountingTransport(
        wrapped: WitnessingTransport(wrapped: transport, witness: witness), counter: refreshes),
      sessionStore: sessionStore)
  }

  /// Refresh requests counted on the wire so far.
  func tokenRefreshRequests() async -> Int? { refreshes.value }

  /// The JWT `sub` (Firebase), else the user the server answered with the session token
  /// (NCMB).
  func tokenSubject(_ token: String) async throws -> String? {
    if let subject = try? JSONWebToken(parsing: token).stringClaim("sub") { return subject }
    return witness.subject(of: token)
  }

  /// The environment's own read of `userID`'s document from the live server.
  /// - Throws: transport errors.
  func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
    try await configuration.rawDocumentRead(
      userID: userID, bearerToken: bearerToken, now: Date(), transport: transport)
  }

  /// A live server sends real SMS; the code is not visible.
  func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }

  /// A live server sends real email; the codes are not visible.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? { nil }

  func finish(passed: Bool) async throws {}
}

extension BackendConfiguration {
  /// The environment's own read of `userID`'s document (``RawDocumentRead``) with this
  /// configuration's project and address (Firebase) or keys and base URL (NCMB), through
  /// `transport`; `now` stamps the NCMB request (the adapter's clock).
  /// - Returns: `nil` for the fake, or without a Firebase project ID or NCMB keys (the
  ///   adapter cannot reach documents then either).
  /// - Throws: transport errors.
  func rawDocumentRead(
    userID: String, bearerToken: String, now: Date, transport: any HTTPTransport
  ) async throws -> ServerAnswer? {
    switch backend {
    case .firebase:
      guard let projectID = firebase.projectID else { return nil }
      return try await RawDocumentRead.firestore(
        userID: userID, bearerToken: bearerToken, projectID: projectID,
        host: firebase.firestoreEmulatorHost ?? firebase.emulatorHost, transport: transport)
    case .ncmb:
      guard let applicationKey = ncmb.applicationKey, let clientKey = ncmb.clientKey else {
        return nil
      }
      return try await RawDocumentRead.ncmb(
        userID: userID, sessionToken: bearerToken, applicationKey: applicationKey,
        clientKey: clientKey,
        baseURL: ncmb.baseURL.flatMap(URL.init(string:)) ?? NCMBConfiguration.defaultBaseURL,
        now: now, transport: transport)
    case .fake:
      return nil
    }
  }
}
