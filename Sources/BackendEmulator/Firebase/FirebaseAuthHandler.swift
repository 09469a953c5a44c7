import AccountDatabase
import BackendHTTP
import Foundation

/// Firebase Authentication REST over a ``FakeUserBackend/UserStore``: Identity Toolkit
/// v1 `accounts:*`, the legacy `identitytoolkit/v3/relyingparty/*` names, the Secure Token
/// `v1/token` endpoint and the Auth Emulator's own `/emulator/v1/projects/{id}/…`
/// endpoints, following `docs/wire/firebase-auth.md` §0–§7.
///
/// Accepted URL forms (both the production hosts and the emulator's path-prefixed form):
/// `https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=K`,
/// `http://HOST:PORT/identitytoolkit.googleapis.com/v1/accounts:signUp?key=K`,
/// `…/securetoken.googleapis.com/v1/token?key=K`,
/// `…/www.googleapis.com/identitytoolkit/v3/relyingparty/<legacy name>?key=K`.
///
/// Served operations: `signUp` (email + password; anonymous without both),
/// `signInWithPassword`, `lookup`, `update` (profile, email, password, linking a password
/// to an anonymous user, applying a `VERIFY_EMAIL` code), `delete`, `sendOobCode`
/// (`PASSWORD_RESET` and `VERIFY_EMAIL` record a code), `resetPassword`,
/// `sendVerificationCode`, `signInWithPhoneNumber`, `signInWithIdp` (`postBody` with an
/// OpenID `id_token`, `providerId` and raw `nonce`) and the token exchange. Other known
/// operations answer `501`.
///
/// Behaviour: any non-empty API key is accepted (`?key=` or `x-goog-api-key`), a missing
/// one gives `403 PERMISSION_DENIED`; errors use the production envelope and messages
/// (`WEAK_PASSWORD : Password should be at least 6 characters`, `EMAIL_EXISTS`,
/// `INVALID_LOGIN_CREDENTIALS` as with email-enumeration protection on, ...); ID tokens are
/// unsigned JWTs valid for 3600 s by the store's clock (see `FirebaseTokens`).
/// Emulator-only endpoints need no key and answer only for ``projectID`` (another project
/// ID is a 404, see `ProjectScope`).
public struct FirebaseAuthHandler: Sendable {
  /// The accounts.
  public let store: UserStore
  /// The project ID in ID tokens (`aud`, `iss`).
  public let projectID: String
  /// Signs ID tokens RS256 and serves the certificate when set; unsigned tokens otherwise.
  public let signing: FirebaseTokenSigning?
  /// The largest age, in seconds by the store's clock, of an ID token's `auth_time` for a
  /// password or email change or an account deletion (older:
  /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`); `nil` never refuses (as the Firebase Auth
  /// Emulator).
  public let recentLoginWindow: TimeInterval?

  /// A handler over `store` for `projectID`, signing ID tokens with `signing` when given.
  ///
  /// - Parameter recentLoginWindow: seconds a sign-in counts as recent for sensitive
  ///   changes (default 300, five minutes); `nil` for no limit.
  public init(
    store: UserStore, projectID: String = "demo-project", signing: FirebaseTokenSigning? = nil,
    recentLoginWindow: TimeInterval? = 300
  ) {
    self.store = store
    self.projectID = projectID
    self.signing = signing
    self.recentLoginWindow = recentLoginWindow
  }

  /// Answers one request; never throws (errors are Firebase error envelopes). A path
  /// naming a project other than ``projectID`` is 404 `NOT_FOUND` naming the configured one.
  ///
  /// The store's calls run through ``AccountDatabase/UserStore/waitingOffPool(_:)``: on a
  /// file store, whose statements may wait for another process's lock, off the
  /// cooperative pool; on an in-memory one, inline.
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    await store.waitingOffPool { answer(request) }
  }

  /// ``handle(_:)`` on the calling thread.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    if let refusal = ProjectScope.refusal(request, projectID: projectID) { return refusal }
    do {
      return try respond(to: request)
    } catch {
      return error.response
    }
  }

  var tokens: FirebaseTokens {
    FirebaseTokens(store: store, projectID: projectID, signing: signing)
  }

  private func respond(to request: HTTPRequest) throws(FirebaseError) -> HTTPResponse {
    guard let route = FirebaseRoute(request) else { throw .notFound }
    switch route {
    case .readiness:
      // `projectId` is ours (the Auth Emulator sends `ready`, `docs`, `apiSpec`): the one
      // project this emulator serves, so a client configured for another can say so
      // before it creates anything (`baas signup`).
      return WireResponse.json(200, ["authEmulator": ["ready": true, "projectId": projectID]])
    case .certificates:
      guard request.method == .get, let signing else { throw .notFound }
      return signing.certificatesResponse
    case .emulator(let resource):
      if resource == "oobCodes" { return try outOfBandCodesEndpoint(request) }
      if resource == "action" { return try actionEndpoint(request) }
      return try emulatorEndpoint(resource, method: request.method)
    case .unimplemented(let name):
      throw .notImplemented(name)
    case .secureToken:
      guard request.method == .post else { throw .notFound }
      try requireAPIKey(request)
      do {
        return WireResponse.json(200, try exchangeRefreshToken(Self.tokenBody(request)))
      } catch {
        throw error.secureTokenShaped
      }
    case .identityToolkit(let operation):
      guard request.method == .post else { throw .notFound }
      try requireAPIKey(request)
      guard let body = WireObject.parse(request.body) else { throw .invalidJSON }
      if let field = body.firstNonString(among: Self.stringFields) { throw .wrongType(field) }
      if let field = body.firstNonBoolean(among: Self.booleanFields) {
        throw .wrongType(field, expected: "TYPE_BOOL")
      }
      return WireResponse.json(200, try perform(operation, body))
    }
  }

  private func perform(_ operation: FirebaseOperation, _ body: WireObject)
    throws(FirebaseError) -> [String: Any]
  {
    switch operation {
    case .signUp: try signUp(body)
    case .signInWithPassword: try signInWithPassword(body)
    case .lookup: try lookup(body)
    case .update: try update(body)
    case .delete: try delete(body)
    case .sendOobCode: try sendOobCode(body)
    case .resetPassword: try resetPassword(body)
    case .sendVerificationCode: try sendVerificationCode(body)
    case .signInWithPhoneNumber: try signInWithPhoneNumber(body)
    case .signInWithIdp: try signInWithIdp(body)
    }
  }

  private func requireAPIKey(_ request: HTTPRequest) throws(FirebaseError) {
    let candidates = [request.queryValue("key"), request.headerFields["x-goog-api-key"]]
    guard candidates.contains(where: { $0?.isEmpty == false }) else { throw .missingAPIKey }
  }

  /// The request fields that must be JSON strings when present (production rejects a
  /// number or an object there with `Invalid JSON payload received.`).
  static let stringFields = [
    "email", "password", "displayName", "idToken", "phoneNumber", "sessionInfo", "code",
    "postBody", "requestUri", "requestType", "tenantId", "grant_type", "grantType",
    "refresh_token", "refreshToken", "oobCode", "newPassword", "photoUrl",
  ]

  /// The request fields that must be JSON booleans when present: `true`/`false` (or the
  /// strings `"true"`/`"false"`, which the emulator has always taken). A number (`1`, `0`)
  /// is refused as production's JSON parser refuses it, not read as a boolean
  /// (``JSONBoolean``).
  static let booleanFields = [
    "returnSecureToken", "returnIdpCredential", "returnUserInfo", "disableUser",
    "emailVerified", "returnOobLink", "canHandleCodeInApp",
  ]

  /// The token endpoint's body: JSON or form, by `Content-Type` (JSON also when the body
  /// starts with `{`).
  private static func tokenBody(_ request: HTTPRequest) throws(FirebaseError) -> WireObject {
    let text = String(decoding: request.body, as: UTF8.self)
    if request.mediaType == "application/json" || text.trimmingSpaces().hasPrefix("{") {
      guard let object = WireObject.parse(request.body) else { throw .invalidJSON }
      if let field = object.firstNonString(among: stringFields) { throw .wrongType(field) }
      return object
    }
    return WireObject.parseForm(text)
  }
}

/// The Identity Toolkit operations this emulator serves (v1 names without `accounts:`).
enum FirebaseOperation: String, CaseIterable {
  case signUp, signInWithPassword, lookup, update, delete, sendOobCode, resetPassword
  case sendVerificationCode, signInWithPhoneNumber, signInWithIdp
}

/// Where a Firebase request goes, from its host (or emulator path prefix) and path.
enum FirebaseRoute {
  case identityToolkit(FirebaseOperation)
  case secureToken
  case emulator(resource: String)
  case unimplemented(String)
  case readiness
  /// Google's path shape for the token-signing certificates (`--sign-tokens`).
  case certificates

  /// Legacy v3 names and their v1 operations (`docs/wire/firebase-auth.md` §0); `nil` =
  /// known, not served.
  static let legacyNames: [String: FirebaseOperation?] = [
    "signupNewUser": .signUp, "verifyPassword": .signInWithPassword,
    "getAccountInfo": .lookup, "setAccountInfo": .update, "deleteAccount": .delete,
    "getOobConfirmationCode": .sendOobCode, "sendVerificationCode": .sendVerificationCode,
    "verifyPhoneNumber": .signInWithPhoneNumber, "verifyAssertion": .signInWithIdp,
    "resetPassword": .resetPassword, "verifyCustomToken": nil, "createAuthUri": nil,
    "emailLinkSignin": nil, "getProjectConfig": nil, "getRecaptchaParam": nil,
  ]

  /// v1 operations that exist but are not served here.
  static let unservedV1: Set<String> = [
    "signInWithCustomToken", "createAuthUri", "signInWithEmailLink",
    "sendPasswordResetEmail", "verifyIosClient", "signInWithGameCenter",
  ]

  init?(_ request: HTTPRequest) {
    var host = request.url.host?.lowercased() ?? ""
    var path = request.decodedPath
    for prefix in [
      "identitytoolkit.googleapis.com", "securetoken.googleapis.com", "www.googleapis.com",
    ]
    where path.hasPrefix("/\(prefix)/") {
      host = prefix
      path = String(path.dropFirst(prefix.count + 1))
    }
    if path == "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com" {
      self = .certificates
      return
    }
    if path == "/emulator/action" {
      self = .emulator(resource: "action")
      return
    }
    if path.hasPrefix("/emulator/v1/projects/") {
      // /emulator/v1/projects/{id}/{resource} (the handler's project ID: `ProjectScope`)
      let parts = path.split(separator: "/")
      guard parts.count == 5 else { return nil }
      self = .emulator(resource: String(parts[4]))
      return
    }
    switch host {
    case "identitytoolkit.googleapis.com":
      guard path.hasPrefix("/v1/accounts:") else { break }
      let name = String(path.dropFirst("/v1/accounts:".count))
      if let operation = FirebaseOperation(rawValue: name) {
        self = .identityToolkit(operation)
        return
      }
      if Self.unservedV1.contains(name) {
        self = .unimplemented(name)
        return
      }
    case "securetoken.googleapis.com":
      if path == "/v1/token" {
        self = .secureToken
        return
      }
    case "www.googleapis.com":
      let prefix = "/identitytoolkit/v3/relyingparty/"
      guard path.hasPrefix(prefix) else { break }
      let name = String(path.dropFirst(prefix.count))
      guard let mapped = Self.legacyNames[name] else { break }
      self = mapped.map { .identityToolkit($0) } ?? .unimplemented(name)
      return
    default:
      if path == "/" {
        self = .readiness
        return
      }
    }
    return nil
  }
}
