import BackendHTTP
import Foundation
import UserBackendKit

/// A ``UserBackend`` that speaks the NCMB (NIFCLOUD mobile backend) REST API, signature
/// version 2, to the hosted service's wire protocol served by any compatible server (the
/// emulator, a re-implementation). Follows `docs/wire/ncmb.md` §1–§4.
///
/// Endpoints (below `<baseURL>/2013-09-01/`): sign-up `POST users`; sign-in `POST login`
/// (JSON; `GET login?userName=&password=` with ``NCMBConfiguration/legacyGETLogin``);
/// sign-out `GET logout`; ``reload()`` `GET users/{objectId}`; ``updateProfile(displayName:photoURL:)``,
/// ``updatePassword(_:)``, ``updateEmail(_:)`` and ``linkPassword(_:)``
/// `PUT users/{objectId}`; ``reauthenticate(_:)`` `POST login`; ``deleteAccount()`` `DELETE users/{objectId}`;
/// ``sendPasswordReset(email:)`` `POST requestPasswordReset`; anonymous and Sign in with
/// Apple `POST users` with `authData`. Every request carries `X-NCMB-Application-Key`,
/// `X-NCMB-Timestamp` (from the injected clock), `X-NCMB-Signature` and
/// `Content-Type: application/json`; calls that act as the signed-in user (sign-out,
/// fetch, update, delete) also carry `X-NCMB-Apps-Session-Token`.
///
/// **Identifiers.** NCMB accounts are keyed by `userName`, which the service compares
/// case-sensitively. A `.username` identifier is sent as `userName` as typed (trimmed).
/// An `.email` identifier (validated and canonicalised: trimmed, NFC, lower-cased) is sent
/// as `userName` **and**, at sign-up, as `mailAddress`, so the accounts this adapter
/// creates have one user name per address whatever its case, and `username == email`.
/// Sign-in tries that canonical `userName` first and, only when it is refused, the
/// address as typed, as `userName` and then as `mailAddress` (see ``signIn(_:)``), so
/// accounts that other SDKs created as `Ada@Example.com` can sign in too.
///
/// **Sessions.** The session token is the bearer token: it has no expiry the client
/// knows of and there is no refresh token (no ``Capability/tokenRefresh``). It is kept in
/// the ``SessionStore`` through a ``SessionEngine`` (serialised updates, store failures
/// as `misconfigured`), so ``currentUser()`` survives a restart. When a signed-in call
/// is answered E401001 (token invalid, expired or revoked), E404001 or E404006 (user
/// gone), the stored session is cleared, `sessionRevoked` is published and
/// `sessionExpired` is thrown.
///
/// Thread-safe: all state lives in the session store, behind the session engine.
public final class NCMBUserBackend: UserBackend {
  /// `"ncmb"`.
  public let backendID = "ncmb"

  /// Email and user-name passwords, anonymous sign-in, Sign in with Apple, password reset,
  /// account deletion, auth state changes, account management (reload, profile as custom
  /// user fields, password and email changes, re-authentication, upgrading a guest) and
  /// user documents (the user object's own fields); sign-out revokes the session token on
  /// the server (`GET logout`). Not phone sign-in, not token refresh; not email
  /// verification or completing a password reset, for which the service has no API (its
  /// mails link to its own pages); a password change keeps the session token valid.
  public let capabilities: Set<Capability> = [
    .emailPassword, .usernamePassword, .anonymousSignIn, .identityProviderSignIn,
    .passwordReset, .accountDeletion, .authStateChanges,
    .userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .reauthentication,
    .anonymousUpgrade, .userDocuments, .signOutRevokesSession,
  ]

  /// The configuration in use.
  public let configuration: NCMBConfiguration

  let client: NCMBClient
  /// The stored session: serialised updates, auth-state events.
  let sessions: SessionEngine
  let makeUUID: @Sendable () -> UUID

  /// A backend.
  ///
  /// - Parameters:
  ///   - configuration: keys and base URL; checked here.
  ///   - transport: sends the HTTP requests.
  ///   - sessionStore: where the session lives between launches.
  ///   - clock: the time stamped into `X-NCMB-Timestamp` (inject a fixed clock for
  ///     replay).
  ///   - makeUUID: the source of anonymous identities (`authData.anonymous.id`) and of the
  ///     document store's creation nonces; inject a
  ///     seeded one for replay.
  ///   - logger: receives one line per HTTP exchange (URL query values redacted); `nil`
  ///     logs nothing.
  /// - Throws: ``UserBackendError`` `.misconfigured` for an empty key or an unusable base
  ///   URL.
  public init(
    configuration: NCMBConfiguration, transport: any HTTPTransport,
    sessionStore: any SessionStore, clock: any AuthClock = SystemClock(),
    makeUUID: @escaping @Sendable () -> UUID = { UUID() }, logger: HTTPLogger? = nil
  ) throws(UserBackendError) {
    try configuration.validate()
    self.configuration = configuration
    self.client = NCMBClient(
      configuration: configuration, transport: logger?.wrapping(transport) ?? transport,
      clock: clock)
    self.sessions = SessionEngine(store: sessionStore)
    self.makeUUID = makeUUID
  }

  /// Creates the account with `POST /2013-09-01/users` and signs it in (201 answer).
  ///
  /// - Returns: the session; `isNewUser` is `true`; `providers == ["password"]`.
  /// - Throws: ``UserBackendError``: `.invalidInput`, `.invalidEmail`, `.weakPassword`
  ///   before any request; `.accountAlreadyExists` (E409001), `.misconfigured`,
  ///   `.rateLimited`, `.network`, `.server`, `.malformedResponse`.
  public func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: true, capabilities: capabilities)
    let (userName, mailAddress) = Self.wireIdentifier(valid.identifier)
    let body = NCMBSignUpRequest(
      userName: userName, password: valid.password, mailAddress: mailAddress)
    let endpoint = NCMBEndpoint(
      method: .post, pathSegments: ["users"], body: try NCMBClient.json(body), name: "sign-up")
    let answer = try await perform(endpoint, sessionToken: nil)
    let response = try NCMBClient.decode(NCMBUserResponse.self, from: answer, endpoint: "sign-up")
    let user = NCMBUserMapping.user(
      from: response, hasPasswordIdentity: true, sentUserName: userName,
      sentMailAddress: mailAddress)
    return try await establish(response, user: user, isNewUser: true, endpoint: "sign-up")
  }

  /// Signs in with `POST /2013-09-01/login` (or the legacy `GET`, see
  /// ``NCMBConfiguration/legacyGETLogin``); replaces any signed-in user.
  ///
  /// NCMB's `userName` is case-sensitive. The requests, each sent only when the one
  /// before was answered `E401002` (wrong identifier or password):
  /// 1. `userName` = the identifier as this adapter stores it (an email canonical:
  ///    trimmed, NFC, lower-case, as ``signUp(_:)`` creates accounts);
  /// 2. for an email typed with capitals, `userName` = the email exactly as typed
  ///    (trimmed, NFC): an account another SDK created as `Ada@Example.com`;
  /// 3. for an email, `mailAddress` = the email as typed with `password`: the service's
  ///    mail-address login, for an account whose user name is not its address (the
  ///    service accepts it once the address is confirmed).
  /// A `.username` identifier makes only request 1, with the name as typed (trimmed).
  ///
  /// - Returns: the session; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError``: `.invalidInput`, `.invalidEmail` before any request;
  ///   `.invalidCredentials` (E401002 to every request), `.misconfigured`,
  ///   `.rateLimited`, `.network`, `.server`, `.malformedResponse` (from the first
  ///   request that is not answered E401002).
  public func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let (response, user) = try await authenticate(credential)
    return try await establish(response, user: user, isNewUser: false, endpoint: "login")
  }

  /// The user of the stored session, or `nil`. No network call.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the session store cannot be read.
  public func currentUser() async throws(UserBackendError) -> User? {
    try await sessions.session()?.user
  }

  /// Signs out: clears the stored session and publishes `signedOut` **first**, then sends
  /// `GET /2013-09-01/logout` with the old session token so the server revokes it.
  ///
  /// Signing out when nobody is signed in does nothing. An E401001 / E404001 / E404006
  /// answer (token already invalid, user gone) counts as success.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the session store cannot be
  ///   written (the session is then still stored); after the
  ///   local sign-out, ``UserBackendError`` `.network` or `.server` when the server could
  ///   not revoke the token: the user **is** signed out locally, but the old session token
  ///   may stay valid on the server until it expires.
  public func signOut() async throws(UserBackendError) {
    guard let session = try await sessions.signOut() else { return }
    let endpoint = NCMBEndpoint(method: .get, pathSegments: ["logout"], name: "logout")
    do {
      _ = try await client.send(endpoint, sessionToken: session.bearerToken)
    } catch let error as NCMBServerError {
      if NCMBErrorMapping.sessionRejectionCodes.contains(error.code) { return }
      throw Self.mapped(error, sentSessionToken: true)
    } catch {
      throw Self.mapped(error)
    }
  }

  /// The session token. With `forceRefresh`, first checks it with
  /// `GET /2013-09-01/users/{objectId}` (see ``reload()``): NCMB tokens cannot be
  /// refreshed, so a "refresh" only validates the token and updates the stored user; the
  /// returned token is the same.
  ///
  /// - Throws: ``UserBackendError`` `.notSignedIn`; with `forceRefresh` also
  ///   `.sessionExpired` (session cleared), `.network` (session kept), `.server`,
  ///   `.malformedResponse`.
  public func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
    let session = try await sessions.requireSession()
    if forceRefresh { _ = try await reload() }
    return session.bearerToken
  }

  /// Sign-in state changes: the current state first, then `signedIn`, `signedOut` and
  /// `sessionRevoked` events of this instance.
  public var authStateChanges: AsyncStream<AuthStateChange> {
    sessions.authStateChanges
  }

  /// The wire `userName` and sign-up `mailAddress` for an identifier.
  static func wireIdentifier(_ identifier: PasswordCredential.Identifier) -> (
    userName: String, mailAddress: String?
  ) {
    switch identifier {
    case .email(let email): (email, email)
    case .username(let name): (name, nil)
    }
  }
}
