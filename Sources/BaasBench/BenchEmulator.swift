import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import UserBackendKit

/// A loopback ``BackendEmulator/EmulatorServer`` on an ephemeral port over an in-memory
/// ``FakeUserBackend/UserStore``, for the groups that need a real socket.
struct BenchEmulator: Sendable {
  /// The accounts behind both protocols.
  let store: UserStore
  /// The running server.
  let server: EmulatorServer
  /// The bound port.
  let port: Int
  /// The PBKDF2 rounds the store hashes passwords with.
  let hashCost: Int

  /// Starts a server on `127.0.0.1:0` whose store hashes with `hashCost` PBKDF2 rounds.
  /// - Throws: ``FakeUserBackend/UserStoreError`` or ``BackendEmulator/EmulatorServerError``.
  static func start(hashCost: Int, clock: any AuthClock = SystemClock()) throws -> BenchEmulator {
    let store = try UserStore(passwordHashIterations: hashCost, clock: clock)
    let emulator = BackendEmulator(store: store)
    let server = EmulatorServer(host: "127.0.0.1", port: 0) { request in
      await emulator.handle(request)
    }
    let port = try server.start()
    return BenchEmulator(store: store, server: server, port: port, hashCost: hashCost)
  }

  /// `127.0.0.1:<port>`, the form `FIREBASE_AUTH_EMULATOR_HOST` takes.
  var hostAndPort: String { "127.0.0.1:\(port)" }

  /// `http://127.0.0.1:<port>`.
  var baseURL: URL { URL(string: "http://\(hostAndPort)")! }

  /// The Web API key the benchmark's Firebase clients send (the emulator accepts any).
  static let firebaseAPIKey = "bench-api-key"

  /// Stops the server (graceful) without blocking a cooperative thread while it drains.
  func shutDown() async { await server.shutDown() }
}

/// Forwards to another transport, remembering the last request and counting requests whose
/// raw path contains a marker (e.g. the Secure Token endpoint).
final class CountingTransport: HTTPTransport {
  private let wrapped: any HTTPTransport
  private let marker: String?
  private let state = LockedValue<(count: Int, last: HTTPRequest?, response: HTTPResponse?)>(
    (0, nil, nil))

  /// Wraps `transport`; requests whose raw path contains `marker` are counted (all
  /// requests when it is `nil`).
  init(wrapping transport: any HTTPTransport, counting marker: String? = nil) {
    wrapped = transport
    self.marker = marker
  }

  /// Records and forwards `request`.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let counted = marker.map { request.rawPath.contains($0) } ?? true
    state.withLock { state in
      state.last = request
      if counted { state.count += 1 }
    }
    let response = try await wrapped.send(request)
    state.withLock { $0.response = response }
    return response
  }

  /// The counted requests since creation or the last ``reset()``.
  var count: Int { state.withLock { $0.count } }
  /// The most recent request.
  var lastRequest: HTTPRequest? { state.withLock { $0.last } }
  /// The most recent response.
  var lastResponse: HTTPResponse? { state.withLock { $0.response } }
  /// Starts counting from zero.
  func reset() { state.withLock { $0.count = 0 } }
}

/// Answers every request with the same response at once: no socket, no server, so an
/// adapter over it shows only its own client-side work.
struct CannedTransport: HTTPTransport {
  /// The response returned for every request.
  let response: HTTPResponse

  /// Returns ``response``.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}
