import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import FirebaseUserBackend
import Foundation
import HTTPReplay
import NCMBUserBackend
import UserBackendKit

/// The two wire protocols the emulator serves and the cassettes record: Firebase
/// Authentication REST and NCMB REST. The emulator, replay and live harnesses build their
/// adapter through ``makeAdapter(keys:transport:sessionStore:clock:uuids:)``.
public enum WireBackend: String, Sendable, Hashable, CaseIterable {
  /// `FirebaseUserBackend` (Identity Toolkit v1 + Secure Token).
  case firebase
  /// `NCMBUserBackend` (signature v2).
  case ncmb

  /// The keys and server address an adapter is built with.
  ///
  /// `description` redacts every key.
  public struct Keys: Sendable, Hashable, CustomStringConvertible {
    /// Firebase: the Web API key (sent as `key=`).
    public var firebaseAPIKey: String
    /// Firebase: `host:port` of an Auth emulator (the emulator URL form), or `nil` for the
    /// production hosts.
    public var firebaseEmulatorHost: String?
    /// NCMB: the application key (sent as `X-NCMB-Application-Key`).
    public var ncmbApplicationKey: String
    /// NCMB: the client key (the HMAC key of the signature; never sent).
    public var ncmbClientKey: String
    /// NCMB: the server's base URL.
    public var ncmbBaseURL: URL

    /// Keys; the defaults reach the production host names (which the in-process emulator
    /// also answers).
    public init(
      firebaseAPIKey: String, firebaseEmulatorHost: String? = nil, ncmbApplicationKey: String,
      ncmbClientKey: String, ncmbBaseURL: URL = NCMBConfiguration.defaultBaseURL
    ) {
      self.firebaseAPIKey = firebaseAPIKey
      self.firebaseEmulatorHost = firebaseEmulatorHost
      self.ncmbApplicationKey = ncmbApplicationKey
      self.ncmbClientKey = ncmbClientKey
      self.ncmbBaseURL = ncmbBaseURL
    }

    /// The keys a recording against the in-process emulator uses: the emulator accepts any
    /// Firebase API key and the public NCMB demo keys.
    public static let emulator = Keys(
      firebaseAPIKey: "emulator-api-key", ncmbApplicationKey: NCMBDemoKeys.applicationKey,
      ncmbClientKey: NCMBDemoKeys.clientKey)

    /// The fixed, fake keys replay harnesses use: cassettes hold only aliases of the
    /// recording keys, so any value works, and the NCMB request signatures made with
    /// ``ncmbClientKey`` are checked against it.
    public static let replay = Keys(
      firebaseAPIKey: "replay-api-key", ncmbApplicationKey: "replay-application-key",
      ncmbClientKey: "replay-client-key")

    /// The secret values (API key, application key, client key), for leak scans.
    public var secrets: [String] { [firebaseAPIKey, ncmbApplicationKey, ncmbClientKey] }

    /// The address only; keys redacted.
    public var description: String {
      "Keys(firebaseAPIKey: <redacted>, firebaseEmulatorHost: "
        + "\(firebaseEmulatorHost ?? "nil"), ncmbApplicationKey: <redacted>, ncmbClientKey: "
        + "<redacted>, ncmbBaseURL: \(ncmbBaseURL.absoluteString))"
    }
  }

  /// The Firebase project ID the emulator puts in ID tokens and the adapter expects.
  public static let projectID = "demo-project"

  /// The redaction and matching rules of this protocol's cassettes: `RedactionRules.firebase`,
  /// or `RedactionRules.ncmb` without `X-NCMB-Response-Signature` in the kept response
  /// headers. That signature covers the body as the server sent it, with the real session
  /// token, so it can never verify against the cassette's redacted body; kept, it would
  /// only make every recording differ (the token is random).
  public var redactionRules: RedactionRules {
    switch self {
    case .firebase:
      return .firebase
    case .ncmb:
      var rules = RedactionRules.ncmb
      rules.responseHeaderAllowList.removeAll { $0.lowercased() == "x-ncmb-response-signature" }
      return rules
    }
  }

  /// The adapter for this protocol.
  ///
  /// - Parameters:
  ///   - keys: keys and server address.
  ///   - transport: where requests go (emulator, cassette, network).
  ///   - sessionStore: the session store (the same one again on a restart).
  ///   - clock: the clock the adapter reads (token expiry, NCMB timestamps).
  ///   - uuids: the source of NCMB's anonymous identities (`authData.anonymous.id`); pass a
  ///     seeded ``uuidSource(seed:)`` so that a replay sends what the recording sent;
  ///     `nil` uses random UUIDs. Ignored by Firebase.
  /// - Throws: the adapter's `UserBackendError` `.misconfigured`.
  public func makeAdapter(
    keys: Keys, transport: any HTTPTransport, sessionStore: any SessionStore,
    clock: any AuthClock, uuids: (@Sendable () -> UUID)? = nil
  ) throws -> any UserBackend {
    switch self {
    case .firebase:
      return try FirebaseUserBackend(
        configuration: FirebaseConfiguration(
          apiKey: keys.firebaseAPIKey, projectID: Self.projectID,
          emulatorHost: keys.firebaseEmulatorHost),
        transport: transport, sessionStore: sessionStore, clock: clock)
    case .ncmb:
      return try NCMBUserBackend(
        configuration: NCMBConfiguration(
          applicationKey: keys.ncmbApplicationKey, clientKey: keys.ncmbClientKey,
          baseURL: keys.ncmbBaseURL),
        transport: transport, sessionStore: sessionStore, clock: clock,
        makeUUID: uuids ?? { UUID() })
    }
  }

  /// The capabilities the adapter claims (built once over a transport that is never used).
  /// - Throws: the adapter's initialisation error.
  public func capabilities(keys: Keys) throws -> Set<Capability> {
    try makeAdapter(
      keys: keys, transport: UnusedTransport(), sessionStore: InMemorySessionStore(),
      clock: ManualClock()
    ).capabilities
  }

  /// A reproducible UUID source for NCMB anonymous identities: the same seed gives the
  /// same sequence. Share one source across restarts of a run, as the recording did.
  public static func uuidSource(seed: UInt64) -> @Sendable () -> UUID {
    let randomness = UserStoreRandomness.seeded(seed)
    return { randomness.uuid() }
  }

  /// The recording seed of `contract`: the first 8 bytes of SHA-256 of its name, so every
  /// recording of one contract uses the same seed.
  public static func seed(forContract contract: String) -> UInt64 {
    Crypto.sha256(Data(contract.utf8)).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  }
}

/// A transport for adapters that are only asked for their capabilities.
private struct UnusedTransport: HTTPTransport {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    throw HTTPTransportError.invalidRequest(reason: "a capability probe sends no requests")
  }
}

/// A `RandomNumberGenerator` over a seeded ``FakeUserBackend/UserStoreRandomness`` (for
/// reproducible contract variables).
struct SeededVariableGenerator: RandomNumberGenerator {
  let randomness: UserStoreRandomness

  init(seed: UInt64) { randomness = .seeded(seed) }

  mutating func next() -> UInt64 {
    randomness.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  }
}
