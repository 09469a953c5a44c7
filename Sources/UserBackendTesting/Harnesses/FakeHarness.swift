import AccountDatabase
import FakeUserBackend
import Foundation
import UserBackendContracts
import UserBackendKit

/// Runs contracts against ``FakeUserBackend/FakeUserBackend`` with no I/O: every run gets
/// its own in-memory ``FakeUserBackend/UserStore`` (`":memory:"`), a `ManualClock` (so
/// `controllableClock` contracts run) and a low PBKDF2 cost so that the suite stays fast.
///
/// Phone codes are read from the store's pending verifications; token refreshes are
/// counted as the store's refresh-token rotations (the fake's wire).
public struct FakeHarness: ContractHarness {
  /// `"fake"`.
  public let name = "fake"
  /// PBKDF2 rounds for the store (low: the contracts test behaviour, not hashing cost).
  public var passwordHashIterations: Int
  /// Seconds an ID token stays valid: 600…31,536,000 (``UserBackendKit/TokenLifetime``);
  /// another value fails ``makeEnvironment(for:variables:)`` with
  /// `.misconfigured(setting: "idTokenLifetime")`.
  public var idTokenLifetime: TimeInterval

  /// A harness; defaults: 1 000 PBKDF2 rounds, 3600 s ID tokens.
  public init(passwordHashIterations: Int = 1_000, idTokenLifetime: TimeInterval = 3600) {
    self.passwordHashIterations = passwordHashIterations
    self.idTokenLifetime = idTokenLifetime
  }

  /// A fresh store and clock; the proposed variables are used as they are.
  /// - Throws: `UserStoreError.database` when SQLite cannot open the in-memory store;
  ///   `UserBackendError` `.misconfigured(setting: "idTokenLifetime")` for a lifetime
  ///   ``UserBackendKit/TokenLifetime`` does not believe.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let clock = ManualClock()
    let store = try UserStore(
      path: ":memory:", passwordHashIterations: passwordHashIterations, clock: clock)
    let capabilities = try FakeUserBackend(
      store: store, sessionStore: InMemorySessionStore(), idTokenLifetime: idTokenLifetime
    ).capabilities
    return FakeEnvironment(
      store: store, clock: clock, capabilities: capabilities, variables: variables,
      idTokenLifetime: idTokenLifetime)
  }
}

/// One contract run on the fake: one store shared by every restarted backend.
struct FakeEnvironment: ContractEnvironment {
  let store: UserStore
  let clock: ManualClock?
  let capabilities: Set<Capability>
  let variables: [String: String]
  let idTokenLifetime: TimeInterval

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try FakeUserBackend(
      store: store, sessionStore: sessionStore, idTokenLifetime: idTokenLifetime)
  }

  func phoneVerificationCode(for verificationID: String) async throws -> String? {
    try store.pendingPhoneVerifications().first { $0.verificationID == verificationID }?.code
  }

  /// The latest out-of-band code of `kind` the fake recorded for `email`.
  /// - Throws: `OutOfBandCodeNotFound` when it recorded none; store errors.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? {
    let codes = try store.outOfBandCodes(email: email)
    guard let code = codes.last(where: { $0.requestType.rawValue == kind.rawValue })?.code else {
      throw OutOfBandCodeNotFound(email: email, kind: kind)
    }
    return code
  }

  /// The fake's token refreshes so far: its server is the store, where every refresh
  /// rotates a refresh token, so the rotations of every account are its "requests".
  /// `nil` when the store cannot be read (then the count is not judged).
  func tokenRefreshRequests() async -> Int? {
    guard let users = try? store.users(limit: Self.countedAccounts) else { return nil }
    var rotations = 0
    for user in users {
      guard let count = try? store.refreshTokenRotationCount(userID: user.id) else { return nil }
      rotations += count
    }
    return rotations
  }

  /// More accounts than any contract creates.
  static let countedAccounts = 10_000

  func finish(passed: Bool) async throws {}
}
