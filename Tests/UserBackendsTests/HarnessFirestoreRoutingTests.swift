import BackendHTTP
import Foundation
import Testing
import UserBackendKit
import UserBackendTesting

/// The harnesses' Firebase adapters send Firestore requests where the emulator answers:
/// in-process to the production host name (which `EmulatorTransport` serves), over
/// loopback to the emulator's own `host:port` (the Auth emulator host, by default).
@Suite("Harness Firestore routing", .timeLimit(.minutes(1)))
struct HarnessFirestoreRoutingTests {
  /// Records the request and fails it.
  final class Recorder: HTTPTransport {
    let urls = LockedValue<[String]>([])
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      urls.withLock { $0.append(request.url.absoluteString) }
      throw HTTPTransportError.invalidRequest(reason: "recorded")
    }
  }

  @Test(
    "The Firestore URL follows the harness keys",
    arguments: [
      (
        nil,
        "https://firestore.googleapis.com/v1/projects/demo-project/databases/(default)/documents/users/u1"
      ),
      (
        "127.0.0.1:9999",
        "http://127.0.0.1:9999/v1/projects/demo-project/databases/(default)/documents/users/u1"
      ),
    ] as [(String?, String)])
  func routing(emulatorHost: String?, url: String) async throws {
    var keys = WireBackend.Keys.emulator
    keys.firebaseEmulatorHost = emulatorHost
    let recorder = Recorder()
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(id: "u1", providers: ["password"]), bearerToken: "token-u1",
          refreshToken: "refresh-u1", expiresAt: Date().addingTimeInterval(86_400),
          isNewUser: false)))
    let backend = try WireBackend.firebase.makeAdapter(
      keys: keys, transport: recorder, sessionStore: store, clock: SystemClock())
    #expect(backend.capabilities.contains(.userDocuments))
    _ = try? await backend.userDocuments.document(userID: nil)
    #expect(recorder.urls.withLock { $0 } == [url])
  }

  @Test("Both wire backends claim userDocuments")
  func capabilities() throws {
    for backend in WireBackend.allCases {
      #expect(try backend.capabilities(keys: .replay).contains(.userDocuments), "\(backend)")
    }
  }
}
