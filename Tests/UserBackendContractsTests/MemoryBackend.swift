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
  }
  enum Flaw: Sendable, Hashable {
    case allowDuplicates
    case wrongEmail
    case staleForcedRefresh
    case leakTokenInSignOutError
    case silentSignOut
  }

  let clock: ManualClock
  let flaws: Set<Flaw>
  private let accounts = Mutex<[String: Account]>([:])
  private let counter = Atomic<Int>(0)

  init(clock: ManualClock = ManualClock(), flaws: Set<Flaw> = []) {
    self.clock = clock
    self.flaws = flaws
  }

  func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }

  func create(key: String, _ account: Account) throws -> Account {
    try accounts.withLock { all in
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
    [.emailPassword, .usernamePassword, .tokenRefresh, .authStateChanges, .anonymousSignIn]
  }

  init(server: MemoryServer, sessionStore: any SessionStore) {
    self.server = server
    self.sessionStore = sessionStore
  }

  private func key(_ credential: PasswordCredential) -> String {
    switch credential.identifier {
    case .email(let email): "e:" + email
    case .username(let name): "u:" + name
    }
  }

  private func makeSession(_ user: User, isNewUser: Bool) -> AuthSession {
    let now = server.clock.now()
    return AuthSession(
      user: user, bearerToken: "token-\(user.id)-\(server.nextNumber())",
      refreshToken: "refresh-\(user.id)-\(server.nextNumber())",
      expiresAt: now.addingTimeInterval(3600),
      isNewUser: isNewUser)
  }

  private func user(_ account: MemoryServer.Account) -> User {
    var email = account.email
    if server.flaws.contains(.wrongEmail), email != nil { email = "wrong@example.com" }
    return User(id: account.id, email: email, username: account.username, providers: ["password"])
  }

  private func store(_ session: AuthSession) async throws -> AuthSession {
    try await sessionStore.save(PersistedAuthState(session: session))
    broadcaster.publish(AuthStateChange(.signedIn, user: session.user))
    return session
  }

  func signUp(_ credential: PasswordCredential) async throws -> AuthSession {
    let valid = try CredentialValidation.validate(credential, forSignUp: true)
    var account = MemoryServer.Account(
      id: "user-\(server.nextNumber())", password: valid.password)
    switch valid.identifier {
    case .email(let email): account.email = email
    case .username(let name): account.username = name
    }
    await Task.yield()
    let created = try server.create(key: key(valid), account)
    return try await store(makeSession(user(created), isNewUser: true))
  }

  func signIn(_ credential: PasswordCredential) async throws -> AuthSession {
    let valid = try CredentialValidation.validate(credential, forSignUp: false)
    guard let account = server.account(key: key(valid)), account.password == valid.password
    else { throw UserBackendError(.invalidCredentials, backendCode: "BAD_LOGIN") }
    return try await store(makeSession(user(account), isNewUser: false))
  }

  func signInAnonymously() async throws -> AuthSession {
    let id = "anon-\(server.nextNumber())"
    return try await store(
      makeSession(User(id: id, providers: [], isAnonymous: true), isNewUser: true))
  }

  func currentUser() async throws -> User? { try await sessionStore.load().session?.user }

  func signOut() async throws {
    let session = try await sessionStore.load().session
    let wasSignedIn = session != nil
    if let session, server.flaws.contains(.leakTokenInSignOutError) {
      throw UserBackendError(
        .server(status: 500, code: nil, message: nil),
        message: "rejected token \(session.bearerToken)")
    }
    try await sessionStore.clear()
    if wasSignedIn, !server.flaws.contains(.silentSignOut) {
      broadcaster.publish(AuthStateChange(.signedOut, user: nil))
    }
  }

  func idToken(forceRefresh: Bool) async throws -> String {
    guard let session = try await sessionStore.load().session else {
      throw UserBackendError(.notSignedIn)
    }
    let stale = server.flaws.contains(.staleForcedRefresh)
    guard session.isExpired(at: server.clock.now()) || (forceRefresh && !stale) else {
      return session.bearerToken
    }
    let old = session.refreshToken ?? ""
    return try await refreshes.run(key: old) { [self] in
      // A caller that read the session before another refresh finished gets that result.
      guard let current = try await sessionStore.load().session else {
        throw UserBackendError(.notSignedIn)
      }
      if current.refreshToken != old { return current }
      let fresh = makeSession(current.user, isNewUser: false)
      try await sessionStore.save(PersistedAuthState(session: fresh))
      return fresh
    }.bearerToken
  }

  var authStateChanges: AsyncStream<AuthStateChange> {
    broadcaster.stream { [sessionStore] in try? await sessionStore.load().session?.user }
  }
}

/// A harness over ``MemoryBackend``; `capabilities` and `clock` can be narrowed to test
/// skipping.
struct MemoryHarness: ContractHarness {
  var name = "memory"
  var flaws: Set<MemoryServer.Flaw> = []
  var capabilities: Set<Capability>? = nil
  var controllableClock = true

  func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let server = MemoryServer(flaws: flaws)
    let probe = MemoryBackend(server: server, sessionStore: InMemorySessionStore())
    return Environment(
      server: server, capabilities: capabilities ?? probe.capabilities,
      clock: controllableClock ? server.clock : nil, variables: variables)
  }

  struct Environment: ContractEnvironment {
    let server: MemoryServer
    let capabilities: Set<Capability>
    let clock: ManualClock?
    let variables: [String: String]
    func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
      MemoryBackend(server: server, sessionStore: sessionStore)
    }
    func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }
    func finish(passed: Bool) async throws {}
  }
}
