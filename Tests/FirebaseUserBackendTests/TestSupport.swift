import BackendHTTP
import Foundation
import UserBackendKit

@testable import FirebaseUserBackend

/// Fixed values used across the tests. The API key looks like a real one so a leak scan
/// would spot it.
enum Fixture {
  static let apiKey = "AIzaSyTEST-key_0123456789abcdefghijklmn"
  static let refreshToken = "AMf-refresh-token-0001"
  static let start = Date(timeIntervalSince1970: 1_767_225_600)

  /// An unsigned Firebase-shaped ID token; `aud` is `audience` (left out when `nil`), by
  /// default the project of the Firestore tests.
  static func idToken(
    uid: String = "uid-1", exp: Date, provider: String = "password",
    email: String? = "alice@example.com", phoneNumber: String? = nil, serial: Int = 0,
    audience: String? = "demo-project"
  ) -> String {
    var claims: [String: Any] = [
      "sub": uid, "user_id": uid, "exp": Int(exp.timeIntervalSince1970),
      "iat": Int(exp.timeIntervalSince1970) - 3600, "serial": serial,
      "firebase": ["sign_in_provider": provider],
    ]
    if let email { claims["email"] = email }
    if let phoneNumber { claims["phone_number"] = phoneNumber }
    if let audience { claims["aud"] = audience }
    return JSONWebToken.unsigned(claims: claims)
  }

  /// A `accounts:signUp` / `signInWithPassword` style 200 body.
  static func signInBody(
    idToken: String, refreshToken: String = refreshToken, uid: String = "uid-1",
    email: String = "alice@example.com", extra: String = ""
  ) -> String {
    """
    {"kind":"identitytoolkit#VerifyPasswordResponse","localId":"\(uid)","email":"\(email)",\
    "displayName":"","idToken":"\(idToken)","registered":true,\
    "refreshToken":"\(refreshToken)","expiresIn":"3600"\(extra)}
    """
  }

  /// A Secure Token 200 body.
  static func tokenBody(idToken: String, refreshToken: String = refreshToken) -> String {
    """
    {"expires_in":"3600","token_type":"Bearer","refresh_token":"\(refreshToken)",\
    "id_token":"\(idToken)","user_id":"uid-1","project_id":"1234567890",\
    "access_token":"\(idToken)"}
    """
  }

  /// A Google error envelope.
  static func errorBody(_ message: String, status: Int = 400) -> String {
    """
    {"error":{"code":\(status),"message":"\(message)",\
    "errors":[{"message":"\(message)","domain":"global","reason":"invalid"}]}}
    """
  }

  /// A session that expires at `expiresAt`.
  static func session(expiresAt: Date, refreshToken: String = refreshToken) -> AuthSession {
    AuthSession(
      user: User(id: "uid-1", email: "alice@example.com", providers: ["password"]),
      bearerToken: idToken(exp: expiresAt), refreshToken: refreshToken, expiresAt: expiresAt,
      isNewUser: false)
  }

  static func backend(
    _ transport: any HTTPTransport, store: any SessionStore = InMemorySessionStore(),
    clock: ManualClock = ManualClock(start), emulatorHost: String? = nil
  ) throws -> FirebaseUserBackend {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: apiKey, emulatorHost: emulatorHost),
      transport: transport, sessionStore: store, clock: clock)
  }
}

extension HTTPRequest {
  /// The last path segment: `accounts:signUp`, `token`.
  var operation: String { url.lastPathComponent }
  /// The body as text.
  var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Collects auth state events from a stream in the background.
final class EventRecorder: Sendable {
  private final class Storage: Sendable {
    let events = LockedValue<[AuthStateChange.Event]>([])
  }
  private let storage: Storage
  private let task: Task<Void, Never>

  init(_ stream: AsyncStream<AuthStateChange>) {
    let storage = Storage()
    self.storage = storage
    task = Task {
      for await change in stream { storage.events.withLock { $0.append(change.event) } }
    }
  }

  /// Waits (yielding, bounded by iterations, not wall time) until `count` events arrived.
  func events(atLeast count: Int) async -> [AuthStateChange.Event] {
    for _ in 0..<100_000 {
      let current = storage.events.withLock { $0 }
      if current.count >= count { return current }
      await Task.yield()
    }
    return storage.events.withLock { $0 }
  }

  deinit { task.cancel() }
}

extension Fixture {
  /// A stub that answers every Firebase endpoint with a plausible success, issuing ID
  /// tokens valid for an hour from `clock`'s time.
  static func server(clock: ManualClock) -> StubTransport {
    StubTransport { request in
      let token = idToken(exp: clock.now().addingTimeInterval(3600))
      switch request.operation {
      case "accounts:signUp", "accounts:signInWithPassword":
        return StubTransport.json(200, signInBody(idToken: token))
      case "accounts:lookup":
        return StubTransport.json(
          200,
          """
          {"users":[{"localId":"uid-1","email":"alice@example.com","displayName":"Alice",\
          "providerUserInfo":[{"providerId":"password","email":"alice@example.com",\
          "federatedId":"alice@example.com","rawId":"alice@example.com"}],\
          "passwordUpdatedAt":1.7e12,"validSince":"1767225000","createdAt":"1767225000000"}]}
          """)
      case "accounts:update":
        return StubTransport.json(
          200,
          """
          {"localId":"uid-1","email":"alice@example.com","displayName":"Alice",\
          "idToken":"\(token)","refreshToken":"AMf-refresh-token-0002","expiresIn":"3600"}
          """)
      case "accounts:delete":
        return StubTransport.json(200, #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
      case "accounts:sendOobCode":
        return StubTransport.json(200, #"{"email":"alice@example.com"}"#)
      case "accounts:resetPassword":
        return StubTransport.json(
          200, #"{"email":"alice@example.com","requestType":"PASSWORD_RESET"}"#)
      case "token":
        return StubTransport.json(200, tokenBody(idToken: token))
      case "accounts:sendVerificationCode":
        return StubTransport.json(200, #"{"sessionInfo":"SESSION-INFO-1"}"#)
      case "accounts:signInWithPhoneNumber":
        let phoneToken = idToken(
          uid: "uid-phone", exp: clock.now().addingTimeInterval(3600), provider: "phone",
          email: nil, phoneNumber: "+819012345678")
        return StubTransport.json(
          200,
          """
          {"idToken":"\(phoneToken)","refreshToken":"AMf-phone-refresh","expiresIn":"3600",\
          "localId":"uid-phone","phoneNumber":"+819012345678","isNewUser":true}
          """)
      case "accounts:signInWithIdp":
        let appleToken = idToken(
          uid: "uid-apple", exp: clock.now().addingTimeInterval(3600), provider: "apple.com",
          email: "relay@privaterelay.appleid.com")
        return StubTransport.json(
          200,
          """
          {"federatedId":"https://appleid.apple.com/000123","providerId":"apple.com",\
          "localId":"uid-apple","email":"relay@privaterelay.appleid.com","emailVerified":true,\
          "idToken":"\(appleToken)","refreshToken":"AMf-apple-refresh","expiresIn":"3600",\
          "isNewUser":true,"oauthIdToken":"provider-token"}
          """)
      default:
        return StubTransport.json(404, errorBody("NOT_FOUND", status: 404))
      }
    }
  }

  /// A store holding a session valid for an hour from `clock`'s time.
  static func signedInStore(clock: ManualClock) -> InMemorySessionStore {
    InMemorySessionStore(
      PersistedAuthState(session: session(expiresAt: clock.now().addingTimeInterval(3600))))
  }
}
