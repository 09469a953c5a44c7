import Foundation
import Synchronization
import UserBackendContracts
import UserBackendKit

/// Account management on the memory server (issue 20), with the flaws that must make the
/// account contracts fail.
extension MemoryServer {
  /// How long a sign-in stays recent enough for sensitive changes.
  static let recentLoginWindow: TimeInterval = 300

  func noteAuthentication(_ userID: String) {
    let now = clock.now()
    authenticatedAt.withLock { $0[userID] = now }
  }

  /// Throws `requiresRecentLogin` when `userID` proved their password too long ago.
  func requireRecentLogin(_ userID: String) throws(UserBackendError) {
    guard !flaws.contains(.noRecentLoginCheck) else { return }
    let at = authenticatedAt.withLock { $0[userID] } ?? .distantPast
    if clock.now().timeIntervalSince(at) > Self.recentLoginWindow {
      throw UserBackendError(.requiresRecentLogin, backendCode: "TOO_OLD")
    }
  }

  /// The key and account of `userID`.
  func account(id: String) -> (key: String, account: Account)? {
    accounts.withLock { all in all.first { $0.value.id == id }.map { ($0.key, $0.value) } }
  }

  /// Changes the account of `userID` in place.
  func modify(id: String, _ change: (inout Account) -> Void) {
    accounts.withLock { all in
      guard let key = all.first(where: { $0.value.id == id })?.key, var account = all[key]
      else { return }
      change(&account)
      all[key] = account
    }
  }

  /// Records a code for `email` and returns it.
  func issueCode(email: String, kind: OutOfBandCodeKind) {
    let code = "oob-\(nextNumber())-\(kind == .passwordReset ? "reset" : "verify")"
    codes.withLock { $0.append((email, kind, code, false)) }
  }

  /// The latest unused code for `email`.
  func latestCode(email: String, kind: OutOfBandCodeKind) -> String? {
    codes.withLock { all in all.last { $0.email == email && $0.kind == kind && !$0.used }?.code }
  }

  /// Marks `code` used and returns its email; `invalidInput(code)` for an unknown one.
  func useCode(_ code: String, kind: OutOfBandCodeKind) throws(UserBackendError) -> String {
    let email: String? = codes.withLock { all in
      if flaws.contains(.anyCodeAccepted) { return all.last { $0.kind == kind }?.email }
      guard let index = all.firstIndex(where: { $0.code == code && $0.kind == kind && !$0.used })
      else { return nil }
      all[index].used = true
      return all[index].email
    }
    guard let email else {
      throw UserBackendError(.invalidInput(field: "code", reason: "unknown or used code"))
    }
    return email
  }
}

extension MemoryBackend {
  /// The signed-in session, or `notSignedIn`.
  func requireSession() async throws(UserBackendError) -> AuthSession {
    guard let session = try await loadSession() else { throw UserBackendError(.notSignedIn) }
    return session
  }

  /// Replaces the session's user with the account's current state.
  private func refreshedUser(_ session: AuthSession) async throws(UserBackendError) -> User {
    guard let account = server.account(id: session.user.id)?.account else { return session.user }
    var updated = session
    updated.user = user(account)
    try await saveSession(updated)
    return updated.user
  }

  func reload() async throws(UserBackendError) -> User {
    try await refreshedUser(try await requireSession())
  }

  func updateProfile(displayName: String?, photoURL: String?) async throws(UserBackendError)
    -> User
  {
    let session = try await requireSession()
    var url: URL??
    if let photoURL {
      if photoURL.isEmpty {
        url = .some(nil)
      } else {
        guard let parsed = URL(string: photoURL), ["http", "https"].contains(parsed.scheme ?? ""),
          parsed.host != nil
        else {
          throw UserBackendError(.invalidInput(field: "photoURL", reason: "not http(s)"))
        }
        url = .some(parsed)
      }
    }
    func apply(_ account: inout MemoryServer.Account) {
      if let displayName { account.displayName = displayName.isEmpty ? nil : displayName }
      if let url, !(has(.photoNeverRemoved) && url == nil) { account.photoURL = url }
    }
    guard let (_, current) = server.account(id: session.user.id) else {
      throw UserBackendError(.invalidInput(field: "user", reason: "no account"))
    }
    var answered = current
    apply(&answered)
    if !has(.profileNotStored) { server.modify(id: session.user.id, apply) }
    var updated = session
    updated.user = user(answered)
    try await saveSession(updated)
    return updated.user
  }

  func updatePassword(_ newPassword: String) async throws(UserBackendError) {
    let session = try await requireSession()
    let valid = try validated {
      try CredentialValidation.validate(
        .email("check@example.com", password: newPassword), forSignUp: true)
    }
    try server.requireRecentLogin(session.user.id)
    server.modify(id: session.user.id) { account in
      account.previousPasswords.append(account.password)
      account.password = valid.password
    }
    // Like Firebase: every earlier token is revoked, this device gets new ones.
    if !has(.passwordChangeRevokesNothing) {
      server.revokeEveryRefreshToken(of: session.user.id)
      try await saveSession(makeSession(session.user, isNewUser: false))
    }
  }

  func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User {
    let session = try await requireSession()
    let valid = try validated {
      try CredentialValidation.validate(
        .email(newEmail, password: "placeholder-7"), forSignUp: true)
    }
    guard case .email(let email) = valid.identifier else { return session.user }
    try server.requireRecentLogin(session.user.id)
    try server.accounts.withLock { all throws(UserBackendError) in
      if all["e:" + email] != nil { throw UserBackendError(.accountAlreadyExists) }
      guard let key = all.first(where: { $0.value.id == session.user.id })?.key,
        var account = all[key]
      else { return }
      all[key] = nil
      account.email = email
      account.emailVerified = false
      all["e:" + email] = account
    }
    return try await refreshedUser(session)
  }

  func sendPasswordReset(email: String) async throws(UserBackendError) {
    let valid = try validated {
      try CredentialValidation.validate(.email(email, password: "placeholder-7"), forSignUp: false)
    }
    guard case .email(let canonical) = valid.identifier else { return }
    if server.account(key: "e:" + canonical) != nil {
      server.issueCode(email: canonical, kind: .passwordReset)
    }
  }

  func sendEmailVerification() async throws(UserBackendError) {
    let session = try await requireSession()
    guard let email = session.user.email else {
      throw UserBackendError(.invalidInput(field: "email", reason: "no email"))
    }
    server.issueCode(email: email, kind: .emailVerification)
  }

  func applyEmailVerification(code: String) async throws(UserBackendError) {
    let email = try server.useCode(code, kind: .emailVerification)
    guard !has(.emailNeverVerified), let account = server.account(key: "e:" + email) else {
      return
    }
    server.modify(id: account.id) { $0.emailVerified = true }
  }

  func confirmPasswordReset(code: String, newPassword: String) async throws(UserBackendError) {
    let valid = try validated {
      try CredentialValidation.validate(
        .email("check@example.com", password: newPassword), forSignUp: true)
    }
    let email = try server.useCode(code, kind: .passwordReset)
    guard let account = server.account(key: "e:" + email) else { return }
    server.modify(id: account.id) { $0.password = valid.password }
  }

  func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let session = try await requireSession()
    let valid = try validated { try CredentialValidation.validate(credential, forSignUp: false) }
    guard let account = server.account(key: key(valid)), account.password == valid.password
    else { throw UserBackendError(.invalidCredentials) }
    if account.id != session.user.id, !has(.reauthenticateAcceptsOtherAccount) {
      throw UserBackendError(.userMismatch, backendCode: "USER_MISMATCH")
    }
    server.noteAuthentication(account.id)
    return try await store(makeSession(user(account), isNewUser: false))
  }

  func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let session = try await requireSession()
    let valid = try validated { try CredentialValidation.validate(credential, forSignUp: true) }
    guard session.user.isAnonymous else {
      throw UserBackendError(.invalidInput(field: "credential", reason: "not a guest"))
    }
    var account = MemoryServer.Account(
      id: has(.linkCreatesNewUser) ? "user-\(server.nextNumber())" : session.user.id,
      password: valid.password, createdAt: server.clock.now())
    switch valid.identifier {
    case .email(let email): account.email = email
    case .username(let name): account.username = name
    }
    let created: MemoryServer.Account
    do {
      created = try server.create(key: key(valid), account)
    } catch {
      throw Self.typed(error)
    }
    server.noteAuthentication(created.id)
    return try await store(makeSession(user(created), isNewUser: false))
  }

  func deleteAccount() async throws(UserBackendError) {
    let session = try await requireSession()
    server.accounts.withLock { all in all = all.filter { $0.value.id != session.user.id } }
    server.documents.withLock { $0[session.user.id] = nil }
    if !has(.deletionRevokesNothing) { server.revokeEveryRefreshToken(of: session.user.id) }
    try await saveSession(nil)
    broadcaster.publish(AuthStateChange(.signedOut, user: nil))
  }

  var userDocuments: any UserDocumentStore { MemoryDocumentStore(backend: self) }
}
