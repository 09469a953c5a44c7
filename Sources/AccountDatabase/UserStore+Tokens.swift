import Foundation
import UserBackendKit

extension UserStore {
  // MARK: - Refresh tokens

  /// Issues a new refresh token for an account, starting a new token family: a sign-in.
  /// The family records now as its authentication time
  /// (``authenticationTime(refreshToken:)``) and the account's `lastSignInAt` becomes now.
  ///
  /// - Returns: 32 random bytes as base64url (43 characters); only its SHA-256 is stored.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func issueRefreshToken(userID: String) throws -> String {
    let token = Self.newToken()
    let now = clock.now().timeIntervalSince1970
    try locked { db in
      try db.transaction {
        guard try Self.userExists(db, userID) else { throw UserStoreError.userNotFound }
        try db.run(
          "INSERT INTO refresh_tokens (token_hash, user_id, family, created_at, authenticated_at) "
            + "VALUES (?, ?, ?, ?, ?)",
          [
            .blob(Self.tokenHash(token)), .text(userID), .text(UUID().uuidString), .real(now),
            .real(now),
          ])
        try Self.stampSignIn(db, userID: userID, at: now)
      }
    }
    return token
  }

  /// How ``redeemRefreshToken(_:policy:)`` treats the token it is given.
  public enum RefreshTokenPolicy: Sendable, Hashable {
    /// The fake backend's own (not Firebase's): every exchange rotates the token, and
    /// presenting a rotated token again revokes its whole family (reuse detection).
    case rotating
    /// Firebase's, used by the emulator: the token stays valid until it is revoked or
    /// the account is deleted (a password change is checked by the caller); presenting it
    /// again is not an error, and the same token is handed back.
    case stable
  }

  /// Exchanges a refresh token for a new one (rotation): ``redeemRefreshToken(_:policy:)``
  /// with ``RefreshTokenPolicy/rotating``. The old token is marked rotated and is never
  /// accepted again.
  ///
  /// Reuse detection: presenting a token that was already rotated revokes its whole
  /// family (every token descended from the same sign-in), because either the client or
  /// an attacker holds a stolen copy; both then have to sign in again.
  ///
  /// A retry is not a reuse: when the token presented is the one rotated last and its
  /// successor has never been presented, the client most likely never stored the answer
  /// (the process was killed, or its session write failed, after the store committed the
  /// rotation). That successor is revoked and a new one issued, once per rotation, so a
  /// lost answer does not sign the user out for good; presenting the token a third time is
  /// a reuse. Presenting a revoked token revokes its family: if a
  /// thief's copy was the one answered as a retry, the rightful client's next refresh
  /// (with the revoked successor) ends the thief's session too.
  ///
  /// - Returns: the account ID and the new refresh token.
  /// - Throws: ``UserStoreError/invalidRefreshToken`` (unknown, already rotated, revoked,
  ///   or the account was deleted), ``UserStoreError/userDisabled``,
  ///   ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func rotateRefreshToken(_ token: String) throws -> (userID: String, refreshToken: String) {
    try redeemRefreshToken(token, policy: .rotating)
  }

  /// Checks a refresh token and returns the account and the token to use from now on:
  /// a new one under ``RefreshTokenPolicy/rotating``, the same one under
  /// ``RefreshTokenPolicy/stable``.
  ///
  /// - Throws: ``UserStoreError/invalidRefreshToken`` (unknown, revoked, or rotated and so
  ///   reused), ``UserStoreError/userDisabled``, ``UserStoreError/userNotFound``,
  ///   ``UserStoreError/database(message:)``.
  public func redeemRefreshToken(_ token: String, policy: RefreshTokenPolicy) throws -> (
    userID: String, refreshToken: String
  ) {
    let hash = Self.tokenHash(token)
    let replacement = Self.newToken()
    let now = clock.now().timeIntervalSince1970
    // The reuse revocation must survive the rejection, so it is committed on its own.
    enum Outcome {
      case rotated(String)
      case kept(String)
      case reused(family: String)
    }
    let outcome: Outcome = try locked { db in
      try db.transaction {
        let found = try db.first(
          "SELECT user_id, family, rotated_at IS NOT NULL, revoked, rowid FROM refresh_tokens "
            + "WHERE token_hash = ?", [.blob(hash)]
        ) { row in
          (
            userID: row.text(0) ?? "", family: row.text(1) ?? "", rotated: row.integer(2) != 0,
            revoked: row.integer(3) != 0, row: row.integer(4)
          )
        }
        guard let found else { throw UserStoreError.invalidRefreshToken }
        if found.revoked { return .reused(family: found.family) }
        if found.rotated {
          guard policy == .rotating,
            let successor = try Self.unusedSuccessor(db, family: found.family, after: found.row)
          else { return .reused(family: found.family) }
          try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE rowid = ?", [.integer(successor)])
        }
        let disabled = try db.first(
          "SELECT disabled FROM users WHERE id = ?", [.text(found.userID)]
        ) { $0.integer(0) != 0 }
        guard let disabled else { throw UserStoreError.userNotFound }
        guard !disabled else { throw UserStoreError.userDisabled }
        if policy == .stable { return .kept(found.userID) }
        // A retry keeps the first rotation's time: it is the same rotation, answered again.
        try db.run(
          "UPDATE refresh_tokens SET rotated_at = coalesce(rotated_at, ?) WHERE token_hash = ?",
          [.real(now), .blob(hash)])
        // The rotation continues the sign-in: it keeps the family's authentication time.
        try db.run(
          "INSERT INTO refresh_tokens (token_hash, user_id, family, created_at, authenticated_at) "
            + "SELECT ?, ?, ?, ?, authenticated_at FROM refresh_tokens WHERE token_hash = ?",
          [
            .blob(Self.tokenHash(replacement)), .text(found.userID), .text(found.family),
            .real(now), .blob(hash),
          ]
        )
        return .rotated(found.userID)
      }
    }
    switch outcome {
    case .rotated(let userID):
      return (userID, replacement)
    case .kept(let userID):
      return (userID, token)
    case .reused(let family):
      try locked { db in
        try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE family = ?", [.text(family)])
      }
      throw UserStoreError.invalidRefreshToken
    }
  }

  /// The row of the one token issued after row `row` in `family` when it has never been
  /// presented (not rotated, not revoked): then the token at `row` is the one rotated last
  /// and its answer was never used, so presenting it again is a retry of that rotation.
  /// `nil` otherwise (a reuse), and so for a second retry: the successor the first one
  /// revoked is a later row too. One retry per rotation answers a lost answer; more would
  /// let a copy of the token be answered again and again, unseen, while the rightful
  /// client does not refresh. Rows of a family are inserted in order, one at a time under
  /// the store's lock, so a later row is a later token.
  static func unusedSuccessor(_ db: Database, family: String, after row: Int64) throws
    -> Int64?
  {
    let later = try db.query(
      "SELECT rowid, rotated_at IS NOT NULL OR revoked != 0 FROM refresh_tokens "
        + "WHERE family = ? AND rowid > ?", [.text(family), .integer(row)]
    ) { (row: $0.integer(0), used: $0.integer(1) != 0) }
    guard later.count == 1, let successor = later.first, !successor.used else { return nil }
    return successor.row
  }

  /// The account a refresh token was issued to, or `nil` when the store never issued it
  /// (or its account was deleted). Rotated and revoked tokens still name their account:
  /// this answers "whose token is this", not "may it be redeemed". Changes nothing.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func userID(forRefreshToken token: String) throws -> String? {
    try locked { db in
      try db.first(
        "SELECT user_id FROM refresh_tokens WHERE token_hash = ?", [.blob(Self.tokenHash(token))]
      ) { $0.text(0) } ?? nil
    }
  }

  /// Revokes every refresh token of an account (all its devices must sign in again).
  /// - Throws: ``UserStoreError/database(message:)``.
  public func revokeRefreshTokens(userID: String) throws {
    try locked { db in
      try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
    }
  }

  /// How many times refresh tokens of an account were rotated (for tests and diagnostics:
  /// a single-flight refresh rotates exactly once).
  /// - Throws: ``UserStoreError/database(message:)``.
  public func refreshTokenRotationCount(userID: String) throws -> Int {
    try locked { db in
      try db.first(
        "SELECT COUNT(*) FROM refresh_tokens WHERE user_id = ? AND rotated_at IS NOT NULL",
        [.text(userID)]
      ) { Int($0.integer(0)) } ?? 0
    }
  }

  // MARK: - Session tokens

  /// Creates an NCMB-style session token: a bearer token without expiry, valid until
  /// deleted or its account is deleted. A sign-in: the account's `lastSignInAt` becomes
  /// now.
  ///
  /// - Returns: 32 random bytes as base64url; only its SHA-256 is stored.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func createSessionToken(userID: String) throws -> String {
    let token = Self.newToken()
    let now = clock.now().timeIntervalSince1970
    try locked { db in
      try db.transaction {
        guard try Self.userExists(db, userID) else { throw UserStoreError.userNotFound }
        try db.run(
          "INSERT INTO session_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)",
          [.blob(Self.tokenHash(token)), .text(userID), .real(now)])
        try Self.stampSignIn(db, userID: userID, at: now)
      }
    }
    return token
  }

  /// The account a session token belongs to, or `nil` when it is unknown or deleted.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func userID(forSessionToken token: String) throws -> String? {
    try locked { db in
      try db.first(
        "SELECT user_id FROM session_tokens WHERE token_hash = ?", [.blob(Self.tokenHash(token))]
      ) { $0.text(0) } ?? nil
    }
  }

  /// Deletes a session token; deleting an unknown one is not an error.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func deleteSessionToken(_ token: String) throws {
    try locked { db in
      try db.run("DELETE FROM session_tokens WHERE token_hash = ?", [.blob(Self.tokenHash(token))])
    }
  }

  // MARK: - Helpers

  /// 32 random bytes, base64url without padding.
  static func newToken() -> String { Base64URL.encode(Crypto.randomBytes(32)) }

  /// The stored form of a token: SHA-256 of its UTF-8 bytes.
  static func tokenHash(_ token: String) -> Data { Crypto.sha256(Data(token.utf8)) }

  static func userExists(_ db: Database, _ userID: String) throws -> Bool {
    try db.first("SELECT 1 FROM users WHERE id = ?", [.text(userID)]) { _ in true } ?? false
  }
}
