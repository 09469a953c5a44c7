import Foundation
import UserBackendKit

// Account management: profile, email, verification, out-of-band codes, linking a password
// to a guest, and the authentication time that "recent sign-in" checks read.
extension UserStore {
  /// Seconds an out-of-band code stays valid: one hour, Firebase's lifetime for
  /// password-reset links.
  public static let outOfBandCodeLifetime: TimeInterval = 3600

  // MARK: - Profile and email

  /// Changes the display name and the photo URL; ``ProfileFieldChange/keep`` leaves a
  /// field, ``ProfileFieldChange/remove`` clears it. The values are stored as given
  /// (callers check them: limits, an absolute `http`/`https` URL).
  ///
  /// - Returns: the updated record.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  @discardableResult
  public func updateProfile(
    userID: String, displayName: ProfileFieldChange, photoURL: ProfileFieldChange
  ) throws -> UserRecord {
    var assignments = ["updated_at = ?"]
    var values: [SQLValue] = [.real(clock.now().timeIntervalSince1970)]
    for (column, change) in [("display_name", displayName), ("photo_url", photoURL)] {
      switch change {
      case .keep: continue
      case .set(let value): values.append(.text(value))
      case .remove: values.append(.null)
      }
      assignments.append("\(column) = ?")
    }
    try updateRow(
      "UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = ?",
      values + [.text(userID)])
    return try existingUser(userID)
  }

  /// Changes the account's email to the canonical form of `newEmail` and clears its
  /// verification (the new address is not verified). Unverified out-of-band codes of the
  /// old address stop working (they name the old address), and the account's outstanding
  /// password-reset codes are voided: whoever still reads the old mailbox cannot take the
  /// account. Tokens are kept.
  ///
  /// - Returns: the updated record.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidEmail` for an email the
  ///   canonicaliser refuses (nothing written); ``UserStoreError/duplicate(field:)``
  ///   `"email"` when another account has it (the UNIQUE index decides);
  ///   ``UserStoreError/userNotFound``; ``UserStoreError/database(message:)``.
  @discardableResult
  public func updateEmail(userID: String, to newEmail: String) throws -> UserRecord {
    let email = try IdentifierCanonicalization.email(newEmail)
    let current = try existingUser(userID)
    guard current.email != email else { return current }
    try locked { db in
      try db.transaction {
        let changed = try db.run(
          "UPDATE users SET email = ?, email_verified = 0, updated_at = ? WHERE id = ?",
          [.text(email), .real(clock.now().timeIntervalSince1970), .text(userID)])
        guard changed == 1 else { throw UserStoreError.userNotFound }
        try Self.voidPasswordResetCodes(db, userID: userID)
      }
    }
    return try existingUser(userID)
  }

  /// Changes the account's user name (canonical: trimmed, NFC, case kept). Tokens are kept.
  ///
  /// - Returns: the updated record.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput(field: "username")` for a
  ///   name the canonicaliser refuses (nothing written); ``UserStoreError/duplicate(field:)``
  ///   `"username"` when another account has it (the UNIQUE index decides);
  ///   ``UserStoreError/userNotFound``; ``UserStoreError/database(message:)``.
  @discardableResult
  public func updateUsername(userID: String, to newUsername: String) throws -> UserRecord {
    let username = try IdentifierCanonicalization.username(newUsername)
    let current = try existingUser(userID)
    guard current.username != username else { return current }
    try updateRow(
      "UPDATE users SET username = ?, updated_at = ? WHERE id = ?",
      [.text(username), .real(clock.now().timeIntervalSince1970), .text(userID)])
    return try existingUser(userID)
  }

  /// Marks the account's email verified (or not).
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func setEmailVerified(userID: String, _ verified: Bool) throws {
    try updateRow(
      "UPDATE users SET email_verified = ?, updated_at = ? WHERE id = ?",
      [.integer(verified ? 1 : 0), .real(clock.now().timeIntervalSince1970), .text(userID)])
  }

  // MARK: - Linking a password to a guest

  /// Turns the anonymous account `userID` into a password account with the same ID: the
  /// email or user name (canonical) and the password hash are stored, the provider
  /// becomes `"password"` and `isAnonymous` `false`, in one statement. Tokens are kept.
  ///
  /// - Returns: the updated record.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidEmail` /
  ///   `.invalidInput(field: "username")` for an identifier the canonicaliser refuses;
  ///   ``UserStoreError/notAnonymous`` (nothing written);
  ///   ``UserStoreError/duplicate(field:)`` (`"email"`, `"username"`);
  ///   ``UserStoreError/userNotFound``; ``UserStoreError/database(message:)``.
  public func linkPassword(
    userID: String, email: String?, username: String? = nil, password: String
  ) throws -> UserRecord {
    let email = try Self.present(email).map(IdentifierCanonicalization.email)
    let username = try Self.present(username).map(IdentifierCanonicalization.username)
    let hash = hashPassword(password)
    let now = clock.now().timeIntervalSince1970
    try locked { db in
      try db.transaction {
        let anonymous = try db.first(
          "SELECT is_anonymous FROM users WHERE id = ?", [.text(userID)]
        ) { $0.integer(0) != 0 }
        guard let anonymous else { throw UserStoreError.userNotFound }
        guard anonymous else { throw UserStoreError.notAnonymous }
        try db.run(
          """
          UPDATE users SET email = ?, username = ?, provider = 'password', is_anonymous = 0,
            password_hash = ?, password_salt = ?, password_iterations = ?, updated_at = ?
          WHERE id = ?
          """,
          [
            Self.optional(email), Self.optional(username), .blob(hash.hash), .blob(hash.salt),
            .integer(Int64(hash.iterations)), .real(now), .text(userID),
          ])
      }
    }
    return try existingUser(userID)
  }

  // MARK: - Recent sign-in

  /// When the sign-in that started `refreshToken`'s family authenticated (kept across
  /// rotations), or `nil` for an unknown token or a family from before schema version 2.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func authenticationTime(refreshToken: String) throws -> Date? {
    try locked { db in
      try db.first(
        "SELECT authenticated_at FROM refresh_tokens WHERE token_hash = ?",
        [.blob(Self.tokenHash(refreshToken))]
      ) { try $0.isNull(0) ? nil : $0.date(0, "refresh_tokens.authenticated_at") } ?? nil
    }
  }

  // MARK: - Out-of-band codes

  /// Records a new out-of-band code for the account `userID`, addressed to its current
  /// email; it expires after ``outOfBandCodeLifetime``. Nothing is sent.
  ///
  /// - Returns: the code.
  /// - Throws: ``UserStoreError/userNotFound``; ``UserBackendKit/UserBackendError``
  ///   `.invalidInput(field: "email")` when the account has no email;
  ///   ``UserStoreError/database(message:)``.
  public func issueOutOfBandCode(_ requestType: OutOfBandRequestType, userID: String) throws
    -> OutOfBandCode
  {
    let user = try existingUser(userID)
    guard let email = user.email else {
      throw UserBackendError(.invalidInput(field: "email", reason: "the account has no email"))
    }
    let now = clock.now()
    let code = OutOfBandCode(
      code: Base64URL.encode(randomness.bytes(32)), requestType: requestType, email: email,
      userID: userID, createdAt: now, expiresAt: now.addingTimeInterval(Self.outOfBandCodeLifetime)
    )
    try locked { db in
      try db.run(
        """
        INSERT INTO out_of_band_codes (code, request_type, email, user_id, created_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(code.code), .text(requestType.rawValue), .text(email), .text(userID),
          .real(now.timeIntervalSince1970), .real(code.expiresAt.timeIntervalSince1970),
        ])
    }
    return code
  }

  /// The codes not used yet (expired ones included, until they are tried), oldest first;
  /// only those for the canonical form of `email` when given.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func outOfBandCodes(email: String? = nil) throws -> [OutOfBandCode] {
    var sql =
      "SELECT code, request_type, email, user_id, created_at, expires_at FROM out_of_band_codes "
      + "WHERE used_at IS NULL"
    var values: [SQLValue] = []
    if let email {
      guard let key = try? IdentifierCanonicalization.email(email) else { return [] }
      sql += " AND email = ?"
      values.append(.text(key))
    }
    return try locked { db in
      try db.query(sql + " ORDER BY created_at, rowid", values) { row in
        OutOfBandCode(
          code: row.text(0) ?? "",
          requestType: OutOfBandRequestType(rawValue: row.text(1) ?? "") ?? .passwordReset,
          email: row.text(2) ?? "", userID: row.text(3) ?? "",
          createdAt: try row.date(4, "out_of_band_codes.created_at"),
          expiresAt: try row.date(5, "out_of_band_codes.expires_at"))
      }
    }
  }

  /// Deletes every recorded code (the emulator's `DELETE …/oobCodes`).
  /// - Throws: ``UserStoreError/database(message:)``.
  public func deleteOutOfBandCodes() throws {
    try locked { db in try db.run("DELETE FROM out_of_band_codes") }
  }

  /// The unused, unexpired code `code` of `requestType`, without using it (Firebase's
  /// `verifyPasswordResetCode`).
  /// - Throws: ``UserStoreError/invalidOutOfBandCode`` (unknown, used, another type),
  ///   ``UserStoreError/outOfBandCodeExpired``, ``UserStoreError/database(message:)``.
  public func outOfBandCode(_ code: String, of requestType: OutOfBandRequestType) throws
    -> OutOfBandCode
  {
    try locked { db in try Self.validCode(db, code, requestType, now: clock.now()) }
  }

  /// Finishes a password reset: uses the code (single use) and sets the new password
  /// (as ``updatePassword(userID:to:)``: refresh tokens revoked, `validSince` now), in
  /// one transaction. The password is hashed before the lock is taken.
  ///
  /// - Returns: the account.
  /// - Throws: ``UserStoreError/invalidOutOfBandCode``,
  ///   ``UserStoreError/outOfBandCodeExpired``, ``UserStoreError/userDisabled``,
  ///   ``UserStoreError/database(message:)``; nothing is written then.
  @discardableResult
  public func completePasswordReset(code: String, newPassword: String) throws -> UserRecord {
    let hash = hashPassword(newPassword)
    let now = clock.now()
    let seconds = now.timeIntervalSince1970
    let userID: String = try locked { db in
      try db.transaction {
        let found = try Self.validCode(db, code, .passwordReset, now: now)
        try Self.use(db, code, at: seconds)
        let disabled = try db.first(
          "SELECT disabled FROM users WHERE id = ?", [.text(found.userID)]
        ) { $0.integer(0) != 0 }
        guard let disabled else { throw UserStoreError.invalidOutOfBandCode }
        guard !disabled else { throw UserStoreError.userDisabled }
        try db.run(
          """
          UPDATE users SET password_hash = ?, password_salt = ?, password_iterations = ?,
            updated_at = ?, valid_since = ? WHERE id = ?
          """,
          [
            .blob(hash.hash), .blob(hash.salt), .integer(Int64(hash.iterations)),
            .real(seconds), .real(seconds), .text(found.userID),
          ])
        try db.run(
          "UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(found.userID)])
        try Self.voidPasswordResetCodes(db, userID: found.userID)
        return found.userID
      }
    }
    return try existingUser(userID)
  }

  /// Finishes an email verification: uses the code (single use) and marks the account's
  /// email verified, when the account's email is still the one the code was sent to.
  ///
  /// - Returns: the account.
  /// - Throws: ``UserStoreError/invalidOutOfBandCode`` (also when the email changed
  ///   since), ``UserStoreError/outOfBandCodeExpired``, ``UserStoreError/userDisabled``,
  ///   ``UserStoreError/database(message:)``; nothing is written then.
  @discardableResult
  public func applyEmailVerification(code: String) throws -> UserRecord {
    let now = clock.now()
    let userID: String = try locked { db in
      try db.transaction {
        let found = try Self.validCode(db, code, .verifyEmail, now: now)
        let account = try db.first(
          "SELECT email, disabled FROM users WHERE id = ?", [.text(found.userID)]
        ) { (email: $0.text(0), disabled: $0.integer(1) != 0) }
        guard let account, account.email == found.email else {
          throw UserStoreError.invalidOutOfBandCode
        }
        guard !account.disabled else { throw UserStoreError.userDisabled }
        try Self.use(db, code, at: now.timeIntervalSince1970)
        try db.run(
          "UPDATE users SET email_verified = 1, updated_at = ? WHERE id = ?",
          [.real(now.timeIntervalSince1970), .text(found.userID)])
        return found.userID
      }
    }
    return try existingUser(userID)
  }

  // MARK: - Helpers

  /// The record `userID`, or ``UserStoreError/userNotFound``.
  func existingUser(_ userID: String) throws -> UserRecord {
    guard let user = try user(id: userID) else { throw UserStoreError.userNotFound }
    return user
  }

  /// Sets the account's last sign-in time (inside the caller's transaction).
  static func stampSignIn(_ db: Database, userID: String, at seconds: Double) throws {
    try db.run(
      "UPDATE users SET last_sign_in_at = ? WHERE id = ?", [.real(seconds), .text(userID)])
  }

  private static func validCode(
    _ db: Database, _ code: String, _ requestType: OutOfBandRequestType, now: Date
  ) throws -> OutOfBandCode {
    let found = try db.first(
      """
      SELECT code, request_type, email, user_id, created_at, expires_at FROM out_of_band_codes
      WHERE code = ? AND used_at IS NULL
      """, [.text(code)]
    ) { row in
      (
        type: row.text(1) ?? "",
        code: OutOfBandCode(
          code: row.text(0) ?? "", requestType: requestType, email: row.text(2) ?? "",
          userID: row.text(3) ?? "", createdAt: try row.date(4, "out_of_band_codes.created_at"),
          expiresAt: try row.date(5, "out_of_band_codes.expires_at"))
      )
    }
    guard let found, found.type == requestType.rawValue else {
      throw UserStoreError.invalidOutOfBandCode
    }
    guard now < found.code.expiresAt else { throw UserStoreError.outOfBandCodeExpired }
    return found.code
  }

  /// Removes the account's unused password-reset codes: a reset code is void once the
  /// password or the email changed after it was sent, so a code read from an old mailbox
  /// cannot undo the change.
  static func voidPasswordResetCodes(_ db: Database, userID: String) throws {
    try db.run(
      """
      DELETE FROM out_of_band_codes
      WHERE user_id = ? AND request_type = ? AND used_at IS NULL
      """, [.text(userID), .text(OutOfBandRequestType.passwordReset.rawValue)])
  }

  private static func use(_ db: Database, _ code: String, at seconds: Double) throws {
    try db.run(
      "UPDATE out_of_band_codes SET used_at = ? WHERE code = ?", [.real(seconds), .text(code)])
  }
}
