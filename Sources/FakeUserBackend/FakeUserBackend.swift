import AccountDatabase
import Foundation
import UserBackendKit

/// The in-process reference ``UserBackendKit/UserBackend`` (`backendID` `"fake"`): real
/// server semantics over a ``UserStore``, no network.
///
/// - Accounts: email or user name with a password (both identifier kinds), anonymous,
///   phone (6-digit codes) and identity-provider (OpenID ID token + raw nonce) accounts.
/// - Tokens: the bearer token is an **unsigned** JWT (`alg: none`) with `sub`, `iat`,
///   `exp` (`iat` + `idTokenLifetime`, by the store's clock) and a random `jti`; refresh
///   tokens are opaque and rotate on every refresh (a rotated one is rejected, and its
///   reuse revokes the whole token family; see ``UserStore/rotateRefreshToken(_:)``).
///   This rotation is the fake's own (Firebase refresh tokens do not rotate; the
///   emulator's follow Firebase).
/// - Sessions go through a ``UserBackendKit/SessionEngine``: refresh is single-flight per
///   refresh token and, on a ``UserBackendKit/FileSessionStore``, serialised across
///   processes, so parallel processes never present a rotated token; the session is
///   cleared only when the store definitively rejects the stored refresh token (invalid,
///   account deleted or disabled), and then `.sessionExpired` is thrown.
/// - Raw error codes are the fake's own: `EMAIL_EXISTS`, `USERNAME_EXISTS`,
///   `INVALID_LOGIN_CREDENTIALS`, `USER_DISABLED`, `INVALID_REFRESH_TOKEN`, `USER_NOT_FOUND`,
///   `INVALID_CODE`, `CODE_EXPIRED`, `INVALID_VERIFICATION_ID`, `INVALID_IDP_RESPONSE`,
///   `MISSING_OR_INVALID_NONCE`, `DATABASE_ERROR`.
///
/// Errors of the ``UserBackendKit/SessionStore`` (disk I/O) are `.misconfigured` naming the
/// store (see ``UserBackendKit/SessionEngine``). Store calls are synchronous (SQLite,
/// PBKDF2): on an in-memory store they run on the caller's task; on a file store, whose
/// statements may wait for another process's lock, on the store's dispatch queue
/// (``AccountDatabase/UserStore/waitingOffPool(_:)``), never on a cooperative thread.
public final class FakeUserBackend: UserBackend {
  /// `"fake"`.
  public let backendID = "fake"

  /// Email and user-name passwords, token refresh, anonymous, phone
  /// and identity-provider sign-in, password reset, account deletion, auth state changes,
  /// and account management (reload, profile, password, email, verification, reset
  /// completion, reauthentication, guest upgrade), and a password change that revokes the
  /// other devices' refresh tokens. Not a server-side sign-out: like Firebase, `signOut()`
  /// leaves the refresh token valid in the store.
  public let capabilities: Set<Capability> = [
    .emailPassword, .usernamePassword, .tokenRefresh, .anonymousSignIn, .phoneNumberSignIn,
    .identityProviderSignIn, .passwordReset, .accountDeletion, .authStateChanges,
    .userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .emailVerification,
    .passwordResetCompletion, .reauthentication, .recentLoginRequirement, .anonymousUpgrade,
    .userDocuments, .passwordChangeRevokesSessions,
  ]

  /// The accounts and tokens (the "server").
  public let store: UserStore
  /// Seconds an ID token stays valid after it is issued: a lifetime
  /// ``UserBackendKit/TokenLifetime`` believes (600 s to a year), the rule the Firebase
  /// adapter and the token verifier apply, so the fake never issues a token they refuse.
  public let idTokenLifetime: TimeInterval
  /// The largest age, in seconds by the store's clock, of the sign-in behind a session
  /// that may still change the password or the email or delete the account; older is
  /// `.requiresRecentLogin` until ``reauthenticate(_:)``.
  public let recentLoginWindow: TimeInterval

  /// The stored session: serialised updates, refresh, auth-state events.
  let sessions: SessionEngine

  /// A backend over `store`, keeping its session in `sessionStore`, issuing ID tokens
  /// that live one hour (3,600 s, as Firebase's). The clock is `store.clock`.
  ///
  /// - Parameters:
  ///   - recentLoginWindow: seconds a sign-in counts as recent for password and email
  ///     changes and account deletion (default 300, the five minutes Firebase apps
  ///     commonly assume; Firebase does not publish its own), kept within 0…31,536,000; a
  ///     value that is not a number is the default. (Out-of-range settings used to trap
  ///     when a token or a message was made; the initializer cannot throw, so it clamps.)
  public convenience init(
    store: UserStore, sessionStore: any SessionStore, recentLoginWindow: TimeInterval = 300
  ) {
    self.init(
      store: store, sessionStore: sessionStore, checkedLifetime: 3600,
      recentLoginWindow: recentLoginWindow)
  }

  /// A backend as ``init(store:sessionStore:recentLoginWindow:)`` makes, whose ID tokens
  /// live `idTokenLifetime` seconds.
  ///
  /// - Parameter idTokenLifetime: seconds until an ID token expires: a lifetime
  ///   ``UserBackendKit/TokenLifetime`` believes, 600…31,536,000 (ten minutes to a year;
  ///   whole seconds are issued). Decision: the one rule of every layer, not a clamp of
  ///   its own; a shorter lifetime would make every call a refresh, and a token the
  ///   Firebase adapter or the token verifier would refuse is never a fake's to issue.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.misconfigured(setting:
  ///   "idTokenLifetime", reason:)` with ``UserBackendKit/TokenLifetime/problem(_:)``'s
  ///   reason for a value outside (not a finite positive number, under 600, over a year).
  public convenience init(
    store: UserStore, sessionStore: any SessionStore, idTokenLifetime: TimeInterval,
    recentLoginWindow: TimeInterval = 300
  ) throws(UserBackendError) {
    if let problem = TokenLifetime.problem(idTokenLifetime) {
      throw UserBackendError(.misconfigured(setting: "idTokenLifetime", reason: problem))
    }
    self.init(
      store: store, sessionStore: sessionStore, checkedLifetime: idTokenLifetime,
      recentLoginWindow: recentLoginWindow)
  }

  private init(
    store: UserStore, sessionStore: any SessionStore, checkedLifetime: TimeInterval,
    recentLoginWindow: TimeInterval
  ) {
    self.store = store
    self.sessions = SessionEngine(store: sessionStore)
    self.idTokenLifetime = checkedLifetime
    self.recentLoginWindow =
      recentLoginWindow.isNaN ? 300 : min(max(recentLoginWindow, 0), 31_536_000)
  }

  var clock: any AuthClock { store.clock }

  // MARK: - Core

  /// Creates a password account (email or user name) and signs it in; `isNewUser` is
  /// `true`.
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput` (empty field, named), `.invalidEmail`,
  ///   `.weakPassword(minimumLength: 6)`, `.accountAlreadyExists` (`EMAIL_EXISTS`,
  ///   `USERNAME_EXISTS`), `.server` (`DATABASE_ERROR`).
  public func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: true, capabilities: capabilities)
    var new = NewUser(password: valid.password, provider: "password")
    switch valid.identifier {
    case .email(let email): new.email = email
    case .username(let username): new.username = username
    }
    let record: UserRecord
    let newUser = new
    do {
      record = try await offPool { store in try store.createUser(newUser) }
    } catch UserStoreError.duplicate(let field) {
      throw UserBackendError(
        .accountAlreadyExists, backendCode: field == "email" ? "EMAIL_EXISTS" : "USERNAME_EXISTS",
        message: "An account with this \(field == "email" ? "email" : "user name") already exists.")
    } catch {
      throw Self.mapped(error)
    }
    return try await startSession(for: record, isNewUser: true)
  }

  /// Signs in with an email or a user name and a password.
  ///
  /// An unknown account and a wrong password give the same error after the same PBKDF2
  /// work; a disabled account is reported only to a caller with the right password.
  /// - Throws: ``UserBackendError`` `.invalidInput`, `.invalidEmail`, `.invalidCredentials`
  ///   (`INVALID_LOGIN_CREDENTIALS`), `.userDisabled` (`USER_DISABLED`), `.server`.
  public func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession
  {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: false, capabilities: capabilities)
    let record = try await authenticate(valid)
    return try await startSession(for: record, isNewUser: false)
  }

  /// The account a validated password credential names, when the password matches; the
  /// one check behind ``signIn(_:)``, ``reauthenticate(_:)``. An unknown account still
  /// costs a password hash, so it cannot be told apart by timing; a disabled account is
  /// reported only to a caller with the right password. One hop off the cooperative pool
  /// for a file store (``AccountDatabase/UserStore/waitingOffPool(_:)``).
  /// - Throws: `.invalidCredentials` (`INVALID_LOGIN_CREDENTIALS`), `.userDisabled`,
  ///   `.server` for a store failure.
  func authenticate(_ valid: PasswordCredential) async throws(UserBackendError) -> UserRecord {
    let store = self.store
    return try await store.waitingOffPool { () throws(UserBackendError) -> UserRecord in
      try Self.authenticate(valid, in: store)
    }
  }

  /// ``authenticate(_:)`` on the calling thread.
  private static func authenticate(_ valid: PasswordCredential, in store: UserStore)
    throws(UserBackendError) -> UserRecord
  {
    let found = try storeCall {
      switch valid.identifier {
      case .email(let email): try store.user(email: email)
      case .username(let username): try store.user(username: username)
      }
    }
    guard let record = found else {
      store.burnPasswordHash(valid.password)
      throw Self.invalidLogin
    }
    let matches: Bool
    do {
      matches = try store.verifyPassword(valid.password, userID: record.id)
    } catch UserStoreError.userNotFound {
      matches = false
    } catch {
      throw mapped(error)
    }
    guard matches else { throw Self.invalidLogin }
    guard !record.disabled else { throw Self.disabled }
    return record
  }

  /// The signed-in user from the session store, or `nil`. Makes no store lookup.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the session store cannot be read.
  public func currentUser() async throws(UserBackendError) -> User? {
    try await sessions.session()?.user
  }

  /// Clears the stored session (a pending phone verification is kept) and publishes
  /// `.signedOut`. Signing out when signed out does nothing. The refresh token is not
  /// revoked in the store, as with Firebase.
  /// - Throws: ``UserBackendError`` `.misconfigured` when the session store cannot be
  ///   written.
  public func signOut() async throws(UserBackendError) {
    try await sessions.signOut()
  }

  /// The ID token, refreshed first when it is expired (by the store's clock) or
  /// `forceRefresh` is `true`. Concurrent callers share one refresh (one rotation), and
  /// callers in other processes on the same session file wait for it and use its result.
  ///
  /// - Throws: ``UserBackendError`` `.notSignedIn`; `.sessionExpired`
  ///   (`INVALID_REFRESH_TOKEN`, `USER_NOT_FOUND`, `USER_DISABLED`) after clearing the
  ///   session; `.server` (`DATABASE_ERROR`), which keeps the session; `.misconfigured`
  ///   when the session store cannot be used.
  public func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
    try await validSession(forceRefresh: forceRefresh).bearerToken
  }

  /// The auth state stream: the current state first, then every change this instance
  /// makes (`signedIn`, `signedOut`, `tokenRefreshed`, `sessionRevoked`).
  public var authStateChanges: AsyncStream<AuthStateChange> {
    sessions.authStateChanges
  }

  // MARK: - Sessions

  /// The stored session, refreshed first when expired or `forceRefresh`.
  func validSession(forceRefresh: Bool) async throws(UserBackendError) -> AuthSession {
    try await sessions.validSession(
      forceRefresh: forceRefresh, needsRefresh: needsRefresh, exchange: exchanger)
  }

  /// Whether a session's ID token has expired (by the injected clock).
  var needsRefresh: @Sendable (AuthSession) -> Bool {
    let clock = self.clock
    return { $0.isExpired(at: clock.now()) }
  }

  /// ``rotate(_:)`` as the session engine takes it.
  var exchanger: @Sendable (AuthSession) async throws(UserBackendError) -> SessionRefreshOutcome {
    { [self] current throws(UserBackendError) -> SessionRefreshOutcome in
      try await store.waitingOffPool { [self] () throws(UserBackendError) in try rotate(current) }
    }
  }

  /// Issues tokens for `record`, stores the session (dropping the pending verification
  /// `completing`, when given) and publishes `.signedIn`.
  func startSession(
    for record: UserRecord, isNewUser: Bool, completing verificationID: String? = nil
  ) async throws(UserBackendError) -> AuthSession {
    let refreshToken = try await storeCall { store in try store.issueRefreshToken(userID: record.id)
    }
    // Re-read: the sign-in stamped `lastSignInAt`.
    let signedIn = try await storeCall { store in try store.user(id: record.id) } ?? record
    let session = makeSession(
      for: signedIn.user, refreshToken: refreshToken, isNewUser: isNewUser)
    try await sessions.signIn(session, completing: verificationID)
    return session
  }

  /// Rotates the stored session's refresh token: the engine's exchange, run under the
  /// session store's exclusive lock with the session as stored now.
  func rotate(_ current: AuthSession) throws(UserBackendError) -> SessionRefreshOutcome {
    let rotated: (userID: String, refreshToken: String)
    let record: UserRecord?
    do {
      rotated = try store.rotateRefreshToken(current.refreshToken ?? "")
      record = try store.user(id: rotated.userID)
    } catch let error as UserStoreError {
      switch error {
      case .invalidRefreshToken, .userNotFound, .userDisabled:
        return .rejected(
          UserBackendError(
            .sessionExpired,
            backendCode: error == .userDisabled
              ? "USER_DISABLED"
              : error == .userNotFound ? "USER_NOT_FOUND" : "INVALID_REFRESH_TOKEN"))
      default:
        throw Self.mapped(error)
      }
    } catch {
      throw Self.mapped(error)
    }
    guard let record else {
      return .rejected(UserBackendError(.sessionExpired, backendCode: "USER_NOT_FOUND"))
    }
    return .renewed(
      makeSession(for: record.user, refreshToken: rotated.refreshToken, isNewUser: false))
  }

  /// A session with a fresh unsigned ID token for `user`.
  func makeSession(for user: User, refreshToken: String, isNewUser: Bool) -> AuthSession {
    let issuedAt = clock.now().timeIntervalSince1970.rounded(.down)
    let expiresAt = issuedAt + idTokenLifetime.rounded(.down)
    var claims: [String: Any] = [
      "iss": "fake", "aud": "fake", "sub": user.id, "iat": Int(issuedAt), "exp": Int(expiresAt),
      "jti": Base64URL.encode(Crypto.randomBytes(16)),
      "sign_in_provider": user.providers.first ?? "password",
      "is_anonymous": user.isAnonymous,
    ]
    if let email = user.email { claims["email"] = email }
    if let username = user.username { claims["preferred_username"] = username }
    if let phoneNumber = user.phoneNumber { claims["phone_number"] = phoneNumber }
    return AuthSession(
      user: user, bearerToken: JSONWebToken.unsigned(claims: claims), refreshToken: refreshToken,
      expiresAt: Date(timeIntervalSince1970: expiresAt), isNewUser: isNewUser)
  }

  // MARK: - Errors

  static let invalidLogin = UserBackendError(
    .invalidCredentials, backendCode: "INVALID_LOGIN_CREDENTIALS",
    message: "The identifier or the password is wrong.")

  static let disabled = UserBackendError(
    .userDisabled, backendCode: "USER_DISABLED", message: "The account is disabled.")

  /// Runs `body` with the store where a wait for another process's lock on a file store
  /// holds no cooperative thread (``UserStore/waitingOffPool(_:)``); errors unmapped.
  func offPool<T: Sendable>(_ body: @escaping @Sendable (UserStore) throws -> T) async throws
    -> T
  {
    let store = self.store
    return try await store.waitingOffPool { try body(store) }
  }

  /// ``offPool(_:)``, mapping its errors with ``mapped(_:)``.
  func storeCall<T: Sendable>(_ body: @escaping @Sendable (UserStore) throws -> T)
    async throws(UserBackendError) -> T
  {
    do {
      return try await offPool(body)
    } catch {
      throw Self.mapped(error)
    }
  }

  /// Runs a store call on the calling thread, mapping its errors with ``mapped(_:)``.
  static func storeCall<T>(_ body: () throws -> T) throws(UserBackendError) -> T {
    do {
      return try body()
    } catch {
      throw mapped(error)
    }
  }

  /// A store error the operation did not handle itself, as a ``UserBackendError``.
  static func mapped(_ error: any Error) -> UserBackendError {
    if let error = error as? UserBackendError { return error }
    guard let storeError = error as? UserStoreError else {
      return UserBackendError(.server(status: 500, code: "INTERNAL", message: "\(error)"))
    }
    switch storeError {
    case .database(let message):
      return UserBackendError(
        .server(status: 500, code: "DATABASE_ERROR", message: message),
        backendCode: "DATABASE_ERROR")
    case .userDisabled:
      return disabled
    case .userNotFound:
      return UserBackendError(.invalidCredentials, backendCode: "USER_NOT_FOUND")
    default:
      return UserBackendError(.server(status: 500, code: nil, message: "\(storeError)"))
    }
  }
}
