import BackendHTTP
import Foundation
import UserBackendKit

/// A ``UserBackend`` over the Firebase Authentication REST API (Identity Toolkit v1 and
/// Secure Token; docs/wire/firebase-auth.md), for production or the Auth Emulator.
///
/// Each operation is a short sequence of endpoint calls. Input is validated before any
/// network call; a `.username` identifier is refused with
/// `.unsupported(capability: .usernamePassword)`. Sessions (ID token as `bearerToken`,
/// refresh token, `expiresAt`) live in the ``SessionStore`` through a ``SessionEngine``.
/// `expiresAt` is the receipt time on the injected clock plus `expiresIn` (else the ID
/// token's `exp - iat`), never the token's `exp` itself, so a device clock that differs
/// from the server's does not make every call refresh (the official SDKs do the same).
/// ``idToken(forceRefresh:)`` refreshes when the ID token is within 5 minutes of expiry;
/// concurrent refreshes of one refresh token share one request, also across processes
/// on one session file. The session is cleared when the server rejects it
/// (`USER_NOT_FOUND`, `USER_DISABLED`, `TOKEN_EXPIRED`, `INVALID_REFRESH_TOKEN`,
/// `INVALID_ID_TOKEN`), never on a network error.
public final class FirebaseUserBackend: UserBackend {
  /// `"firebase"`.
  public let backendID = "firebase"
  /// Email/password, token refresh, anonymous, phone and identity-provider sign-in,
  /// password reset, account deletion, auth state changes, account management (reload,
  /// profile, password and email changes, email verification, completing a password
  /// reset, re-authentication, upgrading a guest) and user documents (Firestore; they need
  /// the project ID, else `.misconfigured` naming it); a password change revokes the
  /// other devices' tokens. Sign-out is the device's only (no server call).
  public let capabilities: Set<Capability> = [
    .emailPassword, .tokenRefresh, .anonymousSignIn, .phoneNumberSignIn,
    .identityProviderSignIn, .passwordReset, .accountDeletion, .authStateChanges,
    .userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .emailVerification,
    .passwordResetCompletion, .reauthentication, .recentLoginRequirement, .anonymousUpgrade,
    .userDocuments, .passwordChangeRevokesSessions,
  ]
  /// The configuration this backend was made with.
  public let configuration: FirebaseConfiguration

  /// An ID token this close to expiry (seconds) is refreshed before use.
  public static let refreshMargin: TimeInterval = 5 * 60

  let client: FirebaseClient
  /// The stored session: serialised updates, refresh, auth-state events.
  let state: SessionEngine
  let clock: any AuthClock

  /// A backend for `configuration`, sending requests through `transport` and keeping
  /// sessions in `sessionStore`.
  ///
  /// - Parameters:
  ///   - clock: the time used for token expiry (inject a `ManualClock` in tests).
  ///   - logger: receives one line per HTTP exchange (URL query values redacted); `nil`
  ///     logs nothing.
  /// - Throws: ``UserBackendError`` `.misconfigured(setting:reason:)` for an empty API key,
  ///   a malformed emulator host, or plain HTTP to a host that is neither loopback nor
  ///   the emulator host. No network call is made.
  public init(
    configuration: FirebaseConfiguration, transport: any HTTPTransport,
    sessionStore: any SessionStore, clock: any AuthClock = SystemClock(),
    logger: HTTPLogger? = nil
  ) throws(UserBackendError) {
    self.configuration = configuration
    self.client = FirebaseClient(
      endpoints: try configuration.resolvedEndpoints(),
      transport: logger?.wrapping(transport) ?? transport)
    self.state = SessionEngine(store: sessionStore)
    self.clock = clock
  }

  // MARK: Core operations

  /// Creates an email/password account with `accounts:signUp` and signs it in.
  ///
  /// - Throws: ``UserBackendError``: `.unsupported(capability: .usernamePassword)`,
  ///   `.invalidInput`, `.invalidEmail`, `.weakPassword` (before any request);
  ///   `.accountAlreadyExists` (`EMAIL_EXISTS`), `.unsupported` (`OPERATION_NOT_ALLOWED`),
  ///   `.rateLimited`, `.misconfigured`, `.network`, `.server`, `.malformedResponse`.
  public func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let (email, password) = try validatedEmailCredential(credential, forSignUp: true)
    let response = try await client.send(
      SignUpRequest(email: email, password: password), capability: .emailPassword,
      secrets: [password])
    let grant = FirebaseTokenGrant(
      idToken: response.idToken, refreshToken: response.refreshToken,
      expiresIn: response.expiresIn?.seconds)
    return try await establish(
      grant: grant, localId: response.localId, email: response.email ?? email,
      displayName: response.displayName, phoneNumber: nil, defaultProvider: "password",
      isNewUser: true, answer: "accounts:signUp")
  }

  /// Signs in with `accounts:signInWithPassword`.
  ///
  /// - Throws: ``UserBackendError``: input errors as ``signUp(_:)``;
  ///   `.invalidCredentials` (`EMAIL_NOT_FOUND`, `INVALID_PASSWORD`,
  ///   `INVALID_LOGIN_CREDENTIALS`), `.userDisabled`, `.rateLimited`,
  ///   `.unsupported(capability: "multiFactorAuthentication")` when a second factor is
  ///   required, `.misconfigured`, `.network`, `.server`, `.malformedResponse`.
  public func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let (email, password) = try validatedEmailCredential(credential, forSignUp: false)
    let (response, grant) = try await passwordSignIn(
      email: email, password: password, capability: .emailPassword)
    return try await establish(
      grant: grant, localId: response.localId, email: response.email ?? email,
      displayName: response.displayName, phoneNumber: nil, defaultProvider: "password",
      isNewUser: false, answer: "accounts:signInWithPassword")
  }

  /// The user stored with the session, or `nil`. No network call; see ``reload()``.
  /// - Throws: ``UserBackendError`` when the session store cannot be read.
  public func currentUser() async throws(UserBackendError) -> User? {
    try await state.load().session?.user
  }

  /// Signs out locally (Firebase has no server-side sign-out for ID tokens): clears the
  /// stored session, keeps a pending phone verification. Signing out twice is not an
  /// error.
  /// - Throws: ``UserBackendError`` when the session store cannot be written.
  public func signOut() async throws(UserBackendError) {
    try await state.signOut()
  }

  /// The ID token, refreshed through `securetoken.googleapis.com/v1/token` first when it
  /// expires within ``refreshMargin`` seconds or `forceRefresh` is `true`.
  ///
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` after the server
  ///   rejected the refresh token (the session is cleared and `.sessionRevoked`
  ///   published); `.network` (the session is kept); `.misconfigured`, `.server`,
  ///   `.malformedResponse`.
  public func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
    try await freshSession(forceRefresh: forceRefresh).bearerToken
  }

  /// Sign-in state changes; the current state first.
  public var authStateChanges: AsyncStream<AuthStateChange> {
    state.authStateChanges
  }

  // MARK: Helpers shared by the operations

  /// Checks a credential before any request with the shared check
  /// (``UserBackendKit/CredentialValidation/validate(_:forSignUp:capabilities:)``): a
  /// user name is `.unsupported(capability: .usernamePassword)`, as Firebase accounts are
  /// identified by email address.
  func validatedEmailCredential(_ credential: PasswordCredential, forSignUp: Bool)
    throws(UserBackendError) -> (email: String, password: String)
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: forSignUp, capabilities: capabilities)
    guard case .email(let email) = valid.identifier else {
      throw UserBackendError(.unsupported(capability: .usernamePassword))
    }
    return (email, valid.password)
  }

  /// Builds a session from a sign-in answer, stores it (replacing any other) and
  /// publishes `.signedIn`.
  /// - Parameter answer: the endpoint's name for error messages (`"accounts:signUp"`).
  /// - Throws: `.malformedResponse`, storing nothing, when `localId` is not a Firebase uid
  ///   (1–128 characters: Firebase allows any text, so `org/42` signs in and only its
  ///   document calls are refused) or the ID token is not a readable JWT for that user
  ///   (``FirebaseSessionBuilder/checkOwner(userID:answered:idToken:projectID:answer:)``);
  ///   `.misconfigured(setting: "projectID")`, storing nothing, when the token is another
  ///   project's. When `isNewUser` (the call created the account), that account is then
  ///   deleted with the token (``removingCreatedAccount(idToken:answer:reason:)``).
  func establish(
    grant: FirebaseTokenGrant, localId: String, email: String?, displayName: String?,
    phoneNumber: String?, defaultProvider: String, isNewUser: Bool, answer: String,
    clearingPhoneVerification: Bool = false
  ) async throws(UserBackendError) -> AuthSession {
    guard
      !localId.isEmpty,
      CredentialValidation.limitedLength(localId) <= CredentialValidation.maximumUserIDLength
    else {
      throw UserBackendError(
        .malformedResponse(reason: "the \(answer) answer's user ID is not 1–128 characters"))
    }
    let claims: FirebaseIDTokenClaims?
    do {
      claims = try FirebaseSessionBuilder.checkOwner(
        userID: localId, answered: nil, idToken: grant.idToken,
        projectID: configuration.projectID, answer: answer)
    } catch {
      guard isNewUser, case .misconfigured(let setting, let reason) = error.code,
        setting == "projectID"
      else { throw error }
      throw await removingCreatedAccount(idToken: grant.idToken, answer: answer, reason: reason)
    }
    let user = FirebaseSessionBuilder.user(
      id: localId, email: email, displayName: displayName, phoneNumber: phoneNumber,
      providers: [], claims: claims, defaultProvider: defaultProvider)
    let session = try FirebaseSessionBuilder.session(
      user: user, grant: grant, claims: claims, isNewUser: isNewUser, now: clock.now())
    // A sign-in replaces a session file that cannot be used (too large, corrupt).
    try await state.update(replacingUnusable: true) { state in
      state.session = session
      if clearingPhoneVerification { state.pendingPhoneVerification = nil }
      return true
    }
    state.publish(.signedIn, user: user)
    return session
  }
}
