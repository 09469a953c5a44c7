import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import UserBackendContracts
import UserBackendKit

/// Runs contracts against `FirebaseUserBackend` or `NCMBUserBackend` talking to the
/// ``BackendEmulator/BackendEmulator`` (docs/ARCHITECTURE.md "The emulator").
///
/// Every run gets a fresh in-memory ``FakeUserBackend/UserStore`` with a low PBKDF2 cost
/// and one `ManualClock` shared by the store (the server side) and the adapter (the
/// client), so `controllableClock` contracts run; SMS codes are read from the store. The
/// server side also moves on by one second per request it handles, so that two tokens
/// minted one request apart differ (see `ServerClock`).
///
/// - ``Route/inProcess`` (`firebase-emulator`, `ncmb-emulator`): requests go through
///   ``BackendEmulator/EmulatorTransport`` to the production host names, no socket.
/// - ``Route/loopback`` (`firebase-emulator-http`, `ncmb-emulator-http`): the run starts an
///   ``BackendEmulator/EmulatorServer`` on an ephemeral `127.0.0.1` port and the adapter
///   uses `NetworkTransport.standard()` (Firebase `emulatorHost` `127.0.0.1:PORT`, NCMB base URL
///   `http://127.0.0.1:PORT`); the server stops when the run finishes.
///
/// Capabilities are the adapter's: a contract needing one the backend lacks is skipped
/// with its name (NCMB has no phone sign-in and no token refresh).
public struct EmulatorHarness: ContractHarness {
  /// How requests reach the emulator.
  public enum Route: String, Sendable, Hashable, CaseIterable {
    /// `EmulatorTransport`: in-process, no socket.
    case inProcess
    /// `EmulatorServer` on loopback + `NetworkTransport.standard()`.
    case loopback
  }

  /// The wire protocol under test.
  public let backend: WireBackend
  /// How requests reach the emulator.
  public let route: Route
  /// PBKDF2 rounds for the store (low: the contracts test behaviour, not hashing cost).
  public var passwordHashIterations: Int
  /// A deliberately broken server, for mutation tests of the contracts: wraps the
  /// transport that reaches the emulator (in process or on loopback), so a test can answer
  /// a request without forwarding it (a `GET logout` that revokes nothing) or change it,
  /// and check that a contract fails. `nil` (the default): the emulator as it is.
  public var serverFault: (@Sendable (any HTTPTransport) -> any HTTPTransport)?

  /// `<backend>-emulator` or `<backend>-emulator-http`.
  public var name: String {
    backend.rawValue + "-emulator" + (route == .loopback ? "-http" : "")
  }

  /// A harness; default route in-process, 1 000 PBKDF2 rounds.
  public init(
    backend: WireBackend, route: Route = .inProcess, passwordHashIterations: Int = 1_000
  ) {
    self.backend = backend
    self.route = route
    self.passwordHashIterations = passwordHashIterations
    self.serverFault = nil
  }

  /// A fresh store, clock and (loopback) server; the proposed variables are used as given.
  ///
  /// The loopback server starts only when the contract will run (every capability it
  /// requires is there), so a skipped contract leaves nothing running.
  /// - Throws: `UserStoreError` (SQLite), `EmulatorServerError` (no port), the adapter's
  ///   initialisation error.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let clock = ManualClock()
    let serverClock = ServerClock(base: clock)
    let store = try UserStore(
      path: ":memory:", passwordHashIterations: passwordHashIterations, clock: serverClock)
    let emulator = BackendEmulator(store: store, projectID: WireBackend.projectID)
    let capabilities = try backend.capabilities(keys: .emulator).union([
      Contract.rawServerRequests
    ])
    var keys = WireBackend.Keys.emulator
    let transport: any HTTPTransport
    var server: ServerLease?
    let runs = contract.requires.allSatisfy {
      $0 == Contract.controllableClock || capabilities.contains($0)
    }
    switch route {
    case .inProcess:
      transport = EmulatorTransport(emulator)
    case .loopback where runs:
      let lease = try ServerLease(emulator: emulator)
      keys.firebaseEmulatorHost = "127.0.0.1:\(lease.port)"
      keys.ncmbBaseURL = lease.baseURL
      transport = LoadTolerantTransport(wrapped: NetworkTransport.standard())
      server = lease
    case .loopback:
      transport = EmulatorTransport(emulator)
    }
    let served = serverFault?(transport) ?? transport
    return EmulatorEnvironment(
      backend: backend, keys: keys,
      transport: TickingTransport(wrapped: served, clock: serverClock), store: store,
      adapterClock: clock,
      capabilities: capabilities, variables: variables, uuids: nil, server: server,
      recording: nil)
  }
}

/// One run against the emulator: one store and clock shared by every restarted backend.
struct EmulatorEnvironment: ContractEnvironment {
  let backend: WireBackend
  let keys: WireBackend.Keys
  let transport: any HTTPTransport
  let store: UserStore
  /// The run's clock: the adapter reads it and `advanceClock` moves it (the store reads it
  /// through a `ServerClock`).
  let adapterClock: ManualClock
  let capabilities: Set<Capability>
  let variables: [String: String]
  /// NCMB anonymous identities (seeded when recording), shared across restarts.
  let uuids: (@Sendable () -> UUID)?
  let server: ServerLease?
  let recording: EmulatorRecording?
  /// The token refresh requests every backend of this run sent.
  let refreshes = RefreshCounter()

  var clock: ManualClock? { adapterClock }

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try backend.makeAdapter(
      keys: keys, transport: RefreshCountingTransport(wrapped: transport, counter: refreshes),
      sessionStore: sessionStore, clock: adapterClock, uuids: uuids)
  }

  /// The JWT `sub` of a Firebase ID token; for an NCMB session token, the user the store
  /// issued it to.
  /// - Throws: `UserStoreError` reading the store.
  func tokenSubject(_ token: String) async throws -> String? {
    if let subject = try? JSONWebToken(parsing: token).stringClaim("sub") { return subject }
    return try store.userID(forSessionToken: token)
  }

  /// Refresh requests counted on the wire so far.
  func tokenRefreshRequests() async -> Int? { refreshes.value }

  /// The environment's own read of `userID`'s document through the run's transport (so
  /// the server fault of a mutation test applies, and a recording keeps it), stamped with
  /// the adapter's clock.
  /// - Throws: transport errors.
  func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
    try await backend.rawDocumentRead(
      userID: userID, bearerToken: bearerToken, keys: keys, now: adapterClock.now(),
      transport: transport)
  }

  /// The code the store generated for `verificationID` (noted for the cassette when
  /// recording).
  func phoneVerificationCode(for verificationID: String) async throws -> String? {
    let code = try store.pendingPhoneVerifications().first {
      $0.verificationID == verificationID
    }?.code
    if let code { recording?.noteCode(code, for: verificationID) }
    return code
  }

  /// The latest out-of-band code of `kind` for `email` from the emulator's
  /// `GET /emulator/v1/projects/{id}/oobCodes` listing, sent through the run's transport
  /// (so a recording keeps the request and its answer in the cassette).
  /// - Throws: `OutOfBandCodeNotFound`, ``OutOfBandListingError``, transport errors.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? {
    try await OutOfBandCodeListing.latestCode(
      email: email, kind: kind, projectID: WireBackend.projectID,
      host: keys.firebaseEmulatorHost, transport: transport)
  }

  /// Stops the loopback server; when recording, writes the cassette if the run passed.
  /// - Throws: `CassetteError` (a leak, an I/O error) when recording.
  func finish(passed: Bool) async throws {
    await server?.server.shutDown()
    try recording?.finish(passed: passed, variables: variables)
  }
}

/// An ``BackendEmulator/EmulatorServer`` on an ephemeral loopback port for one run; stopped
/// by `server.shutDown()` (``EmulatorEnvironment/finish(passed:)``) or, at the latest, when
/// the lease is released.
final class ServerLease: Sendable {
  let server: EmulatorServer
  /// The bound port.
  let port: Int

  init(emulator: BackendEmulator) throws {
    server = EmulatorServer(emulator: emulator, host: "127.0.0.1", port: 0)
    port = try server.start()
  }

  /// `http://127.0.0.1:PORT`.
  var baseURL: URL {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    return components.url ?? URL(fileURLWithPath: "/")
  }

  /// A run that ended without ``EmulatorEnvironment/finish(passed:)`` (a thrown error)
  /// stops the server here: on a thread of its own, since the last reference may be
  /// released on a cooperative thread and `stop()` waits up to the drain timeout.
  deinit {
    let server = self.server
    Thread { server.stop() }.start()
  }
}
