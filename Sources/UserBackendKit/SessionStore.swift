import Foundation

/// A pending phone verification, kept so the flow survives a restart between sending
/// the code and signing in.
public struct PendingPhoneVerification: Sendable, Hashable, Codable {
  /// The verification ID returned by `startPhoneVerification(phoneNumber:)`.
  public var verificationID: String
  /// The E.164 phone number the code was sent to.
  public var phoneNumber: String
  /// When the code was requested.
  public var requestedAt: Date

  /// A pending verification.
  public init(verificationID: String, phoneNumber: String, requestedAt: Date) {
    self.verificationID = verificationID
    self.phoneNumber = phoneNumber
    self.requestedAt = requestedAt
  }
}

/// Everything a backend keeps between launches: the session and in-flight flows.
public struct PersistedAuthState: Sendable, Hashable, Codable {
  /// The signed-in session, or `nil` when signed out.
  public var session: AuthSession?
  /// A phone verification waiting for its code.
  public var pendingPhoneVerification: PendingPhoneVerification?

  /// A state value; the default is signed out with nothing pending.
  public init(
    session: AuthSession? = nil, pendingPhoneVerification: PendingPhoneVerification? = nil
  ) {
    self.session = session
    self.pendingPhoneVerification = pendingPhoneVerification
  }

  /// Signed out, nothing pending.
  public static let empty = PersistedAuthState()
}

/// Where a backend keeps its ``PersistedAuthState``. Required at construction: there is
/// no silent default, so an app always chooses between memory and disk.
public protocol SessionStore: Sendable {
  /// The stored state, or ``PersistedAuthState/empty`` when nothing is stored or the
  /// stored data is unreadable (reported as a diagnostic, never thrown as a crash).
  /// - Throws: only I/O errors other than "no such file".
  func load() async throws -> PersistedAuthState
  /// The stored state for a write that replaces the session (a sign-in, a sign-out):
  /// like ``load()``, but stored data that cannot be used (too large, corrupt, not
  /// private) reads as ``PersistedAuthState/empty`` with `discarded` saying why, so the
  /// write replaces or removes it instead of failing. The default is ``load()`` with
  /// `discarded` `nil`.
  /// - Throws: as ``load()``, for problems a replacement must not paper over.
  func loadForReplacement() async throws -> (state: PersistedAuthState, discarded: String?)
  /// Replaces the stored state. A failed write leaves the previous state intact.
  /// - Throws: the I/O error.
  func save(_ state: PersistedAuthState) async throws
  /// Removes the stored state. Clearing an empty store is not an error.
  /// - Throws: the I/O error.
  func clear() async throws
  /// Runs `body` while holding this store's exclusive lock, which every holder of the
  /// same stored state respects (for a file: every process and every instance on the
  /// same file). ``SessionEngine`` holds it around a token refresh, so that one refresh
  /// token is exchanged by one holder at a time. The default runs `body` directly.
  /// - Throws: the error of taking the lock (before `body` runs), or what `body` throws.
  func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T
  /// Runs `body`, one read-modify-write of the stored state, while holding this store's
  /// update lock, which every holder of the same stored state respects. It is distinct
  /// from the ``withExclusiveAccess(_:)`` lock, so a sign-out never waits for a refresh.
  /// The default runs `body` directly.
  /// - Throws: the error of taking the lock (before `body` runs), or what `body` throws.
  func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T
  /// The setting that chose where the state is kept, named by the `misconfigured` error
  /// a failing store causes (``SessionEngine``). Default `"sessionStore"`.
  var setting: String { get }
  /// The store as messages name it, e.g. `"the session file /home/u/s.json"`. Default
  /// `"the session store"`.
  var location: String { get }
}

extension SessionStore {
  /// ``load()``; nothing is ever discarded.
  public func loadForReplacement() async throws -> (
    state: PersistedAuthState, discarded: String?
  ) {
    (try await load(), nil)
  }
  /// Runs `body` without a lock: a store that only one instance uses needs none.
  public func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await body()
  }
  /// Runs `body` without a lock: a store that only one instance uses needs none.
  public func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await body()
  }
  /// `"sessionStore"`.
  public var setting: String { "sessionStore" }
  /// `"the session store"`.
  public var location: String { "the session store" }
}

/// A ``SessionStore`` in memory: gone when the process ends. For tests, previews and
/// servers that keep no client state. Shared between backend instances, it simulates a
/// restart that keeps the disk.
public final class InMemorySessionStore: SessionStore {
  private let state: LockedValue<PersistedAuthState>
  private let gate = AsyncGate()
  private let updateGate = AsyncGate()

  /// An empty store, or one holding `initial`.
  public init(_ initial: PersistedAuthState = .empty) { state = LockedValue(initial) }

  /// The stored state.
  public func load() async throws -> PersistedAuthState { state.withLock { $0 } }
  /// Replaces the stored state.
  public func save(_ newState: PersistedAuthState) async throws {
    state.withLock { $0 = newState }
  }
  /// Empties the store.
  public func clear() async throws { state.withLock { $0 = .empty } }
  /// Runs `body` while no other holder of this store's lock (in this process) runs.
  public func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await Self.holding(gate, body)
  }
  /// Runs `body` while no other update through this store (in this process) runs.
  public func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await Self.holding(updateGate, body)
  }

  private static func holding<T: Sendable>(
    _ gate: AsyncGate, _ body: () async throws -> T
  ) async throws -> T {
    await gate.acquire()
    do {
      let result = try await body()
      await gate.release()
      return result
    } catch {
      await gate.release()
      throw error
    }
  }
  /// `"the in-memory session store"`.
  public var location: String { "the in-memory session store" }
}

extension PersistedAuthState {
  /// The state with every time inside 0001-01-01…9999-12-31 (UTC), the range every
  /// adapter reads from a server: a session file edited by hand or by another program can
  /// hold any number of seconds, which would print as a year no one can read
  /// (`506713-02-07`) or, before year 1, as the wrong day. A user's `createdAt` or
  /// `lastSignInAt` outside it is dropped (profile data, as an over-long display name
  /// is); an `expiresAt` outside it becomes the earliest instant, so the session counts
  /// as expired and its next use refreshes it (a backend without expiry, NCMB, never
  /// reads it). Nothing else changes, so a session is never lost over a time.
  package func keepingTimesInRange() -> PersistedAuthState {
    guard var session else { return self }
    let inRange: (Date?) -> Bool = { $0.map(DocumentValidation.isInRange) ?? true }
    if !inRange(session.user.createdAt) { session.user.createdAt = nil }
    if !inRange(session.user.lastSignInAt) { session.user.lastSignInAt = nil }
    if !inRange(session.expiresAt) { session.expiresAt = DocumentValidation.earliestTimestamp }
    var result = self
    result.session = session
    return result
  }
}
