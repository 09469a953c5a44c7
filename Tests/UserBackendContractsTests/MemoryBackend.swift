import Foundation
import Synchronization
import UserBackendContracts
import UserBackendKit

/// A tiny in-memory backend used only to test the runner (the real fake lives in
/// FakeUserBackend). `Flaw` injects deliberate bugs.
final class MemoryServer: Sendable {
  struct Account {
    var id: String
    var email: String?
    var username: String?
    var password: String
    var displayName: String? = nil
    var photoURL: URL? = nil
    var emailVerified = false
    var createdAt: Date? = nil
    /// Passwords replaced by `updatePassword` (only the `oldPasswordStillWorks` flaw
    /// accepts them).
    var previousPasswords: [String] = []
  }
  /// A deliberate bug; each one must make some contract fail (FlawedBackendTests).
  enum Flaw: Sendable, Hashable, CaseIterable {
    /// Sign-up accepts an email that is taken.
    case allowDuplicates
    /// Users carry another email.
    case wrongEmail
    /// Users carry their email in another spelling (`" U-…@EXAMPLE.COM"`).
    case emailNotCanonical
    /// Users carry another user name.
    case wrongUsername
    /// Users claim no providers.
    case wrongProviders
    /// Anonymous users are not marked anonymous.
    case anonymousNotFlagged
    /// Every session claims to have created the account.
    case alwaysNewUser
    /// Each sign-in answers a fresh user ID.
    case newIDOnSignIn
    /// Every account gets the same ID.
    case oneIDForEveryone
    /// `idToken(forceRefresh: true)` returns the old token without asking the server.
    case staleForcedRefresh
    /// `idToken()` returns the stored token even after it expired.
    case expiredTokenReturned
    /// A refresh answers a token issued an hour before the one it replaces.
    case backdatedRefresh
    /// The server serves any user's document to any signed-in user; only a read past the
    /// backend (`rawGetDocument`) sees it, as the backend refuses another user's document.
    case noServerOwnerRule
    /// Every `idToken()` mints a new token, even while the old one is valid.
    case newTokenOnEveryRead
    /// Bearer tokens name another subject than the session's user.
    case tokenForAnotherSubject
    /// Concurrent refreshes are not shared: each caller refreshes on its own.
    case noSingleFlight
    /// A weak password is reported as `invalidInput`.
    case weakPasswordAsInvalidInput
    /// `weakPassword` reports another minimum length.
    case wrongMinimumLength
    /// `invalidInput` names another field.
    case wrongInvalidInputField
    /// Sign-out keeps the session.
    case signOutKeepsSession
    /// Sign-out error quotes the bearer token.
    case leakTokenInSignOutError
    /// Sign-out publishes no event.
    case silentSignOut
    /// Sign-in and sign-up publish `signedIn` twice.
    case duplicateSignedInEvent
    /// The session lives in the backend instance, not in the session store: a restarted
    /// backend (a new instance over the same stores) has no current user.
    case memoryOnlySession
    // Account management (issue 20) and documents (issue 13): MemoryBackend+Account.swift,
    // MemoryDocumentStore.swift.
    /// `updateProfile` answers the new profile but does not store it.
    case profileNotStored
    /// `updateProfile` with `""` keeps the photo URL.
    case photoNeverRemoved
    /// `applyEmailVerification` accepts the code but never marks the address verified.
    case emailNeverVerified
    /// Users carry no creation time.
    case noCreationTime
    /// `updatePassword` adds the new password and keeps the old one working.
    case oldPasswordStillWorks
    /// A session's age is never checked: no `requiresRecentLogin`.
    case noRecentLoginCheck
    /// `reauthenticate` accepts another account's credential (and switches to it).
    case reauthenticateAcceptsOtherAccount
    /// `linkPassword` creates a new account instead of upgrading the guest.
    case linkCreatesNewUser
    /// `applyEmailVerification` and `confirmPasswordReset` accept any code.
    case anyCodeAccepted
    /// The document store ignores the owner rule.
    case documentsIgnoreOwner
    /// `createDocument` does not check for an existing document: it overwrites and always
    /// reports `created`.
    case createOverwrites
    /// Integers are stored as doubles.
    case integersAsDoubles
    /// Timestamps are stored to the second.
    case timestampsToSeconds
    /// `updateDocument` replaces the whole document instead of merging.
    case updateReplaces
    /// Document reads with nobody signed in answer `nil` instead of `notSignedIn`.
    case documentsWithoutSignIn
    /// Documents answer another owner's ID.
    case documentWrongOwner
    // Server-side sessions (MemoryBackend+Sessions.swift): the old credential must be
    // refused after these, also on a second device holding a copy of the session.
    /// `signOut` clears the device's session but revokes nothing on the server.
    case signOutRevokesNothing
    /// `updatePassword` leaves the account's other sessions valid.
    case passwordChangeRevokesNothing
    /// `deleteAccount` leaves the account's sessions valid.
    case deletionRevokesNothing
  }

  let clock: ManualClock
  let flaws: Set<Flaw>
  let accounts = LockedValue<[String: Account]>([:])
  /// Documents by owner ID.
  let documents = LockedValue<[String: UserDocument]>([:])
  /// Out-of-band codes "sent", oldest first.
  let codes = LockedValue<[(email: String, kind: OutOfBandCodeKind, code: String, used: Bool)]>([])
  /// When each user last proved their password (sign-up, sign-in, reauthentication).
  let authenticatedAt = LockedValue<[String: Date]>([:])
  /// Refresh tokens revoked one by one (sign-out).
  let revokedRefreshTokens = LockedValue<Set<String>>([])
  /// Per user, the number below which every refresh token is revoked (password change,
  /// deletion).
  let refreshTokensValidFrom = LockedValue<[String: Int]>([:])
  private let counter = Atomic<Int>(0)
  private let refreshCount = Atomic<Int>(0)

  /// Token refreshes this server has performed (the memory backend's "wire").
  var refreshes: Int { refreshCount.load(ordering: .relaxed) }
  func noteRefresh() { refreshCount.add(1, ordering: .relaxed) }

  init(clock: ManualClock = ManualClock(), flaws: Set<Flaw> = []) {
    self.clock = clock
    self.flaws = flaws
  }

  func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }

  func create(key: String, _ account: Account) throws -> Account {
    var account = account
    if flaws.contains(.oneIDForEveryone) { account.id = "user-1" }
    return try accounts.withLock { all in
      if all[key] != nil, !flaws.contains(.allowDuplicates) {
        throw UserBackendError(.accountAlreadyExists, backendCode: "DUPLICATE")
      }
      all[key] = account
      return account
    }
  }

  func account(key: String) -> Account? { accounts.withLock { $0[key] } }
}

final class MemoryBackend: UserBackend {
  let server: MemoryServer
  let sessionStore: any SessionStore
  let broadcaster = AuthStateBroadcaster()
  let refreshes = SingleFlight<String, AuthSession>()
  var backendID: String { "memory" }
  var capabilities: Set<Capability> {
    [
      .emailPassword, .usernamePassword, .tokenRefresh, .authStateChanges, .anonymousSignIn,
      .passwordReset, .accountDeletion, .userReload, .profileUpdate, .passwordUpdate,
      .emailUpdate, .emailVerification, .passwordResetCompletion, .reauthentication,
      .recentLoginRequirement,
      .anonymousUpgrade, .userDocuments, .signOutRevokesSession, .passwordChangeRevokesSessions,
    ]
  }

  /// The session of a `memoryOnlySession` backend.
  private let memorySession = LockedValue<AuthSession?>(nil)

  init(server: MemoryServer, sessionStore: any SessionStore) {
    self.server = server
    self.sessionStore = sessionStore
  }

  func has(_ flaw: MemoryServer.Flaw) -> Bool { server.flaws.contains(flaw) }

  func loadSession() async throws(UserBackendError) -> AuthSession? {
    if has(.memoryOnlySession) { return memorySession.withLock { $0 } }
    do {
      return try await sessionStore.load().session
    } catch {
      throw Self.typed(error)
    }
  }

  /// Any error as the portable one (a store failure as `misconfigured`).
  static func typed(_ error: any Error) -> UserBackendError {
    error as? UserBackendError
      ?? UserBackendError(.misconfigured(setting: "sessionStore", reason: "\(error)"))
  }

  func saveSession(_ session: AuthSession?) async throws(UserBackendError) {
    if has(.memoryOnlySession) {
      memorySession.withLock { $0 = session }
    } else {
      do {
        if let session {
          try await sessionStore.save(PersistedAuthState(session: session))
        } else {
          try await sessionStore.clear()
        }
      } catch {
        throw Self.typed(error)
      }
    }
  }

  /// An unsigned JWT whose `sub` is the user (or, flawed, someone else).
  func bearerToken(for user: User, backdated: Bool = false) -> String {
    let subject = has(.tokenForAnotherSubject) ? "someone-else" : user.id
    let issuedAt = Int(server.clock.now().timeIntervalSince1970) - (backdated ? 3600 : 0)
    return JSONWebToken.unsigned(
      claims: ["sub": subject, "jti": server.nextNumber(), "iat": issuedAt])
  }

  func key(_ credential: PasswordCredential) -> String {
    switch credential.identifier {
    case .email(let email): "e:" + email
    case .username(let name): "u:" + name
    }
  }

  func makeSession(_ user: User, isNewUser: Bool) -> AuthSession {
    let now = server.clock.now()
    return AuthSession(
      user: user, bearerToken: bearerToken(for: user),
      refreshToken: "refresh-\(user.id)-\(server.nextNumber())",
      expiresAt: now.addingTimeInterval(3600),
      isNewUser: isNewUser || has(.alwaysNewUser))
  }

  func user(_ account: MemoryServer.Account) -> User {
    var email = account.email
    if has(.wrongEmail), email != nil { email = "wrong@example.com" }
    if has(.emailNotCanonical), let value = email { email = " " + value.uppercased() }
    var username = account.username
    if has(.wrongUsername), username != nil { username = "someone-else" }
    let id = has(.newIDOnSignIn) ? "\(account.id)-\(server.nextNumber())" : account.id
    return User(
      id: id, email: email, username: username, displayName: account.displayName,
      providers: has(.wrongProviders) ? [] : ["password"],
      emailVerified: account.email == nil ? nil : account.emailVerified,
      photoURL: account.photoURL, createdAt: has(.noCreationTime) ? nil : account.createdAt)
  }

  func store(_ session: AuthSession) async throws(UserBackendError) -> AuthSession {
    try await saveSession(session)
    broadcaster.publish(AuthStateChange(.signedIn, user: session.user))
    if has(.duplicateSignedInEvent) {
      broadcaster.publish(AuthStateChange(.signedIn, user: session.user))
    }
    return session
  }

  /// Applies the error flaws to a validation error.
  func validated<T>(_ body: () throws -> T) throws(UserBackendError) -> T {
    do {
      return try body()
    } catch {
      let error = Self.typed(error)
      switch error.code {
      case .weakPassword where has(.weakPasswordAsInvalidInput):
        throw UserBackendError(.invalidInput(field: "password", reason: "weak"))
      case .weakPassword(let minimum) where has(.wrongMinimumLength):
        throw UserBackendError(.weakPassword(minimumLength: minimum + 2))
      case .invalidInput(let field, let reason) where has(.wrongInvalidInputField):
        throw UserBackendError(.invalidInput(field: field + "Field", reason: reason))
      default: throw error
      }
    }
  }

  func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
    let valid = try validated { try CredentialValidation.validate(credential, forSignUp: true) }
    var account = MemoryServer.Account(
      id: "user-\(server.nextNumber())", password: valid.password,
      createdAt: server.clock.now())
    switch valid.identifier {
    case .email(let email): account.email = email
    case .username(let name): account.username = name
    }
    await Task.yield()
    let created: MemoryServer.Account
    do {
      created = try server.create(key: key(valid), account)
    } catch {
      throw Self.typed(error)
    }
    server.noteAuthentication(created.id)
    return try await store(makeSession(user(created), isNewUser: true))
  }

  func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
    let valid = try validated { try CredentialValidation.validate(credential, forSignUp: false) }
    guard let account = server.account(key: key(valid)),
      account.password == valid.password
        || (has(.oldPasswordStillWorks) && account.previousPasswords.contains(valid.password))
    else { throw UserBackendError(.invalidCredentials, backendCode: "BAD_LOGIN") }
    server.noteAuthentication(account.id)
    return try await store(makeSession(user(account), isNewUser: false))
  }

  func signInAnonymously() async throws(UserBackendError) -> AuthSession {
    let id = "anon-\(server.nextNumber())"
    server.noteAuthentication(id)
    return try await store(
      makeSession(
        User(id: id, providers: [], isAnonymous: !has(.anonymousNotFlagged)), isNewUser: true))
  }

  func currentUser() async throws(UserBackendError) -> User? { try await loadSession()?.user }

  func signOut() async throws(UserBackendError) {
    let session = try await loadSession()
    let wasSignedIn = session != nil
    if let session, has(.leakTokenInSignOutError) {
      throw UserBackendError(
        .server(status: 500, code: nil, message: nil),
        message: "rejected token \(session.bearerToken)")
    }
    if let token = session?.refreshToken, !has(.signOutRevokesNothing) {
      server.revoke(refreshToken: token)
    }
    if !has(.signOutKeepsSession) { try await saveSession(nil) }
    if wasSignedIn, !has(.silentSignOut) {
      broadcaster.publish(AuthStateChange(.signedOut, user: nil))
    }
  }

  func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
    guard let session = try await loadSession() else {
      throw UserBackendError(.notSignedIn)
    }
    let stale = has(.staleForcedRefresh)
    guard
      (session.isExpired(at: server.clock.now()) && !has(.expiredTokenReturned))
        || (forceRefresh && !stale)
        || has(.newTokenOnEveryRead)
    else {
      return session.bearerToken
    }
    let old = session.refreshToken ?? ""
    if has(.noSingleFlight) { return try await refresh(from: old, shared: false).bearerToken }
    do {
      return try await refreshes.run(key: old) { [self] in
        try await refresh(from: old, shared: true)
      }.bearerToken
    } catch {
      throw Self.typed(error)
    }
  }

  private func refresh(from old: String, shared: Bool) async throws(UserBackendError) -> AuthSession
  {
    guard let current = try await loadSession() else {
      throw UserBackendError(.notSignedIn)
    }
    // A caller that read the session before another refresh finished gets that result.
    if shared, current.refreshToken != old { return current }
    server.noteRefresh()
    guard server.isLive(refreshToken: old, userID: current.user.id) else {
      try await saveSession(nil)
      broadcaster.publish(AuthStateChange(.sessionRevoked, user: nil))
      throw UserBackendError(.sessionExpired, backendCode: "REVOKED")
    }
    await Task.yield()
    var fresh = makeSession(current.user, isNewUser: false)
    if has(.backdatedRefresh) {
      fresh.bearerToken = bearerToken(for: current.user, backdated: true)
    }
    try await saveSession(fresh)
    return fresh
  }

  var authStateChanges: AsyncStream<AuthStateChange> {
    broadcaster.stream { [self] in try? await loadSession()?.user }
  }
}
