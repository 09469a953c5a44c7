import Foundation
import UserBackendKit

/// The accounts, tokens and pending phone verifications behind the fake backend and the
/// emulator: one SQLite database, `":memory:"` for tests or a file (WAL journal) for the
/// CLI and the emulator.
///
/// One connection, serialized by a `LockedValue`; every statement is prepared once and reused.
/// UNIQUE indexes on the canonical email, the user name, the phone number and
/// (provider, subject) make duplicate accounts impossible even under concurrency: a
/// refused insert surfaces as ``UserStoreError/duplicate(field:)``; there is no
/// check-then-insert in Swift.
///
/// Passwords are kept only as salted PBKDF2-HMAC-SHA256 hashes (16-byte random salt, 32-byte
/// key); the iteration count is stored per row, so changing `passwordHashIterations` affects
/// new hashes while old ones keep verifying. Refresh and session tokens are random
/// (32 bytes, base64url) and only their SHA-256 is stored.
///
/// All methods are synchronous and thread-safe; password hashing runs outside the lock. A
/// file store's statements may wait (up to the 5 s busy timeout) for another process's
/// lock on the calling thread: async code calls them through ``waitingOffPool(_:)``, so
/// the wait never holds a thread of the cooperative pool.
public final class UserStore: Sendable {
  let database: LockedValue<Database>
  /// PBKDF2 rounds for new password hashes.
  let passwordHashIterations: Int
  /// Seconds a phone verification code stays valid.
  let phoneCodeLifetime: TimeInterval
  /// The clock for timestamps, token lifetimes and code expiry.
  public let clock: any AuthClock
  /// The source of account IDs, phone verification IDs and SMS codes.
  public let randomness: UserStoreRandomness
  /// The database path given to ``init(path:passwordHashIterations:phoneCodeLifetime:clock:randomness:)``.
  public let path: String
  /// Where reads that find damaged data are reported (``reportDamage(to:)``).
  let damageHandler = LockedValue<(@Sendable (String) -> Void)?>(nil)

  /// Opens (creating when missing) the store.
  ///
  /// - Parameters:
  ///   - path: `":memory:"` (the default; private to this instance) or a file path, opened
  ///     with `journal_mode=WAL`, `synchronous=NORMAL` and a 5 s busy timeout; while
  ///     other processes open the same new file, the first open retries for up to 30 s
  ///     (``UserStoreSchema/openingRetryLimit``).
  ///   - passwordHashIterations: PBKDF2 rounds for new hashes (values below 1 count as 1,
  ///     above ``maximumStoredIterations`` as that);
  ///     tests use about 1 000, production-like settings 100 000 or more.
  ///   - phoneCodeLifetime: seconds before a phone verification code expires.
  ///   - clock: the time source; inject a `ManualClock` in tests.
  ///   - randomness: the source of account IDs, phone verification IDs and SMS codes;
  ///     ``UserStoreRandomness/seeded(_:)`` for reproducible recordings.
  /// A file from an older build is migrated to the current schema (``UserStoreSchema``);
  /// a file this build cannot open is left unchanged.
  ///
  /// - Throws: ``UserStoreFileError`` for a file written by a newer build, another
  ///   application's SQLite file or a file that is not SQLite;
  ///   ``UserStoreError/database(message:)`` when the file cannot be opened or the schema
  ///   cannot be created.
  ///
  /// Synchronous: opening a file may wait for other connections (see above) on the calling
  /// thread; async callers use ``open(path:passwordHashIterations:phoneCodeLifetime:clock:randomness:)``,
  /// which waits off the cooperative pool.
  public convenience init(
    path: String = ":memory:", passwordHashIterations: Int = 10_000,
    phoneCodeLifetime: TimeInterval = 300, clock: any AuthClock = SystemClock(),
    randomness: UserStoreRandomness = .system
  ) throws {
    try self.init(
      path: path, passwordHashIterations: passwordHashIterations,
      phoneCodeLifetime: phoneCodeLifetime, clock: clock, randomness: randomness,
      busyTimeout: Database.defaultBusyTimeout)
  }

  /// The public initializer with the busy timeout (milliseconds a statement waits for
  /// another connection's lock) as a parameter: tests that hold a lock longer than the
  /// default 5 s, on a loaded machine, give their store more.
  init(
    path: String, passwordHashIterations: Int, phoneCodeLifetime: TimeInterval,
    clock: any AuthClock, randomness: UserStoreRandomness, busyTimeout: Int32
  ) throws {
    let connection: Database
    do {
      connection = try Database(path: path, busyTimeout: busyTimeout)
      try UserStoreSchema.prepare(connection, path: path)
    } catch let error as UserStoreFileError {
      throw error
    } catch {
      throw Self.storeError(error)
    }
    database = LockedValue(connection)
    self.passwordHashIterations = min(max(1, passwordHashIterations), Self.maximumStoredIterations)
    self.phoneCodeLifetime = phoneCodeLifetime
    self.clock = clock
    self.randomness = randomness
    self.path = path
  }

  // MARK: - Users

  /// Creates an account. Email, user name and phone number are stored in their canonical
  /// forms (``UserBackendKit/IdentifierCanonicalization``: the UNIQUE indexes compare
  /// those); empty or blank strings count as absent. The password, when given, is hashed
  /// before the database lock is taken.
  ///
  /// - Returns: the stored record (new UUID, timestamps from the store clock).
  /// - Throws: ``UserBackendKit/UserBackendError`` (`invalidEmail`,
  ///   `invalidInput(field: "username" | "phoneNumber")`) for an identifier the
  ///   canonicaliser refuses (control or format characters, bad E.164, ...), before any
  ///   write; ``UserStoreError/duplicate(field:)`` (`"email"`, `"username"`,
  ///   `"phoneNumber"`, `"providerSubject"`) when a UNIQUE index refuses the row;
  ///   ``UserStoreError/database(message:)``.
  public func createUser(_ new: NewUser) throws -> UserRecord {
    let now = clock.now()
    let email = try Self.present(new.email).map(IdentifierCanonicalization.email)
    let username = try Self.present(new.username).map(IdentifierCanonicalization.username)
    let phoneNumber = try Self.present(new.phoneNumber).map(
      IdentifierCanonicalization.phoneNumber)
    let hash = new.password.map { hashPassword($0) }
    let record = UserRecord(
      id: randomness.uuid().uuidString.lowercased(), email: email, username: username,
      phoneNumber: phoneNumber, displayName: new.displayName, providers: [new.provider],
      isAnonymous: new.isAnonymous, disabled: false, createdAt: now, updatedAt: now,
      validSince: now)
    try locked { db in
      try db.run(
        """
        INSERT INTO users (id, email, username, phone_number, display_name, provider,
          provider_subject, is_anonymous, disabled, password_hash, password_salt,
          password_iterations, created_at, updated_at, valid_since)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(record.id), Self.optional(email), Self.optional(username),
          Self.optional(phoneNumber), Self.optional(new.displayName), .text(new.provider),
          Self.optional(new.providerSubject), .integer(new.isAnonymous ? 1 : 0),
          hash.map { .blob($0.hash) } ?? .null, hash.map { .blob($0.salt) } ?? .null,
          hash.map { .integer(Int64($0.iterations)) } ?? .null,
          .real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970),
          .real(now.timeIntervalSince1970),
        ])
    }
    return record
  }

  /// The account with `id`, or `nil`.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func user(id: String) throws -> UserRecord? {
    try lookup(where: "id = ?", .text(id))
  }

  /// The account whose email is the canonical form of `email`, or `nil` (also for an
  /// email the canonicaliser refuses: no account can have it).
  /// - Throws: ``UserStoreError/database(message:)``.
  public func user(email: String) throws -> UserRecord? {
    guard let key = try? IdentifierCanonicalization.email(email) else { return nil }
    return try lookup(where: "email = ?", .text(key))
  }

  /// The account with the canonical form of the user name (trimmed, NFC), or `nil`. User
  /// names are case-sensitive.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func user(username: String) throws -> UserRecord? {
    guard let key = try? IdentifierCanonicalization.username(username) else { return nil }
    return try lookup(where: "username = ?", .text(key))
  }

  /// The account with the (trimmed) E.164 phone number, or `nil`.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func user(phoneNumber: String) throws -> UserRecord? {
    guard let key = try? IdentifierCanonicalization.phoneNumber(phoneNumber) else { return nil }
    return try lookup(where: "phone_number = ?", .text(key))
  }

  /// The account created by `provider` for its subject (`sub` claim), or `nil`.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func user(provider: String, subject: String) throws -> UserRecord? {
    try lookup(where: "provider = ? AND provider_subject = ?", .text(provider), .text(subject))
  }

  /// The largest PBKDF2 iteration count read back from a row: 10,000,000 (far above
  /// any configured count, far below one that would stall a sign-in for minutes).
  public static let maximumStoredIterations = 10_000_000

  /// Checks `password` against the stored PBKDF2 hash with a constant-time comparison.
  ///
  /// - Returns: `false` for a wrong password or an account without a password.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``
  ///   (also when the row's iteration count is below 1 or above
  ///   ``maximumStoredIterations``, or when only some of the hash, salt and count are
  ///   stored: damage, never a wrong password).
  public func verifyPassword(_ password: String, userID: String) throws -> Bool {
    let stored = try locked { db in
      try db.first(
        "SELECT password_hash, password_salt, password_iterations FROM users WHERE id = ?",
        [.text(userID)]
      ) { row in
        (
          hash: row.blob(0), salt: row.blob(1),
          iterations: row.isNull(2) ? nil : Int(row.integer(2))
        )
      }
    }
    guard let stored else { throw UserStoreError.userNotFound }
    // An account without a password has none of the three columns.
    if stored.hash == nil, stored.salt == nil, stored.iterations == nil {
      burnPasswordHash(password)
      return false
    }
    // The count comes from the database file: a tampered or corrupt row must not make
    // one sign-in run PBKDF2 for hours (2e9 rounds) or trap converting it for OpenSSL;
    // nor may a count below 1 (or a hash without its salt or count) read as a wrong
    // password: both ends of the range, and a partial row, are damage, named alike.
    guard let iterations = stored.iterations, iterations >= 1 else {
      burnPasswordHash(password)
      throw reported(
        UserStoreError.database(
          message: "the stored iteration count in users.password_iterations is "
            + (stored.iterations == nil ? "missing" : "less than 1")
            + ": the database was altered or is corrupt (users.id \(userID))"))
    }
    guard let hash = stored.hash, let salt = stored.salt else {
      burnPasswordHash(password)
      let column = stored.hash == nil ? "password_hash" : "password_salt"
      throw reported(
        UserStoreError.database(
          message: "the stored password of this account has no users.\(column): the database "
            + "was altered or is corrupt (users.id \(userID))"))
    }
    guard iterations <= Self.maximumStoredIterations else {
      burnPasswordHash(password)
      // Named by table.column and account, not by the stored number (a damage report
      // names where, never what).
      throw reported(
        UserStoreError.database(
          message: "the stored iteration count in users.password_iterations is more than "
            + "the \(Self.maximumStoredIterations) accepted: the database was altered or is "
            + "corrupt (users.id \(userID))"))
    }
    let candidate = Crypto.pbkdf2SHA256(
      password: Data(password.utf8), salt: salt, iterations: iterations)
    return Crypto.constantTimeEquals(candidate, hash)
  }

  /// Replaces the password hash (fresh salt, current iteration count), moves `validSince`
  /// to now and revokes the account's refresh tokens, as a password change does on real
  /// servers, and voids its unused password-reset codes. Session tokens are kept.
  ///
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func updatePassword(userID: String, to newPassword: String) throws {
    let hash = hashPassword(newPassword)
    let now = clock.now().timeIntervalSince1970
    try locked { db in
      try db.transaction {
        let changed = try db.run(
          """
          UPDATE users SET password_hash = ?, password_salt = ?, password_iterations = ?,
            updated_at = ?, valid_since = ? WHERE id = ?
          """,
          [
            .blob(hash.hash), .blob(hash.salt), .integer(Int64(hash.iterations)), .real(now),
            .real(now), .text(userID),
          ])
        guard changed == 1 else { throw UserStoreError.userNotFound }
        try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
        try Self.voidPasswordResetCodes(db, userID: userID)
      }
    }
  }

  /// Sets or clears the display name.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func updateProfile(userID: String, displayName: String?) throws {
    try updateRow(
      "UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?",
      [Self.optional(displayName), .real(clock.now().timeIntervalSince1970), .text(userID)])
  }

  /// Disables or re-enables an account. A disabled account cannot sign in or refresh.
  /// - Throws: ``UserStoreError/userNotFound``, ``UserStoreError/database(message:)``.
  public func setDisabled(userID: String, _ disabled: Bool) throws {
    try updateRow(
      "UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?",
      [.integer(disabled ? 1 : 0), .real(clock.now().timeIntervalSince1970), .text(userID)])
  }

  /// Deletes an account with its refresh and session tokens.
  ///
  /// - Returns: `true` when an account was deleted, `false` when none had `id`.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func deleteUser(id: String) throws -> Bool {
    try locked { db in try db.run("DELETE FROM users WHERE id = ?", [.text(id)]) == 1 }
  }

  /// Deletes every account (and so every token). Pending verifications and password-reset
  /// requests are deleted too.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func deleteAllUsers() throws {
    try locked { db in
      try db.transaction {
        try db.run("DELETE FROM users")
        try db.run("DELETE FROM phone_verifications")
        try db.run("DELETE FROM password_reset_requests")
      }
    }
  }

  /// The number of accounts.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func userCount() throws -> Int {
    try locked { db in try db.first("SELECT COUNT(*) FROM users") { Int($0.integer(0)) } ?? 0 }
  }

  // MARK: - Internals shared by the extensions

  /// Runs `body` with the connection under the lock, mapping SQLite errors to
  /// ``UserStoreError``.
  @discardableResult
  func locked<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try database.withLock { db in try body(db) }
    } catch {
      throw reported(Self.storeError(error))
    }
  }

  /// Spends the same PBKDF2 work as a real check, so an unknown account takes as long to
  /// reject as a wrong password.
  package func burnPasswordHash(_ password: String) {
    _ = Crypto.pbkdf2SHA256(
      password: Data(password.utf8), salt: Data(count: 16), iterations: passwordHashIterations)
  }

  func hashPassword(_ password: String) -> (hash: Data, salt: Data, iterations: Int) {
    let salt = Crypto.randomBytes(16)
    let hash = Crypto.pbkdf2SHA256(
      password: Data(password.utf8), salt: salt, iterations: passwordHashIterations)
    return (hash, salt, passwordHashIterations)
  }

  func updateRow(_ sql: String, _ values: [SQLValue]) throws {
    let changed = try locked { db in try db.run(sql, values) }
    guard changed == 1 else { throw UserStoreError.userNotFound }
  }

  private func lookup(where condition: String, _ values: SQLValue...) throws -> UserRecord? {
    try locked { db in
      try db.first(
        """
        SELECT id, email, username, phone_number, display_name, provider, is_anonymous,
          disabled, created_at, updated_at, valid_since, email_verified, photo_url,
          last_sign_in_at FROM users WHERE \(condition)
        """, values
      ) { row in
        try Self.namingRow("users.id", row.text(0)) {
          try Self.userRecord(row)
        }
      }
    }
  }

  private static func userRecord(_ row: Row) throws -> UserRecord {
    try UserRecord(
      id: row.text(0) ?? "", email: row.text(1), username: row.text(2),
      phoneNumber: row.text(3), displayName: row.text(4),
      providers: row.text(5).map { [$0] } ?? [], isAnonymous: row.integer(6) != 0,
      disabled: row.integer(7) != 0, createdAt: row.date(8, "users.created_at"),
      updatedAt: row.date(9, "users.updated_at"),
      validSince: row.date(10, "users.valid_since"), emailVerified: row.integer(11) != 0,
      photoURL: row.text(12),
      lastSignInAt: row.isNull(13) ? nil : row.date(13, "users.last_sign_in_at"))
  }

  static func storeError(_ error: any Error) -> UserStoreError {
    if let storeError = error as? UserStoreError { return storeError }
    guard let sqlite = error as? SQLiteError else {
      return .database(message: String(describing: error))
    }
    guard sqlite.isUniqueViolation else { return .database(message: sqlite.message) }
    // SQLite names the index columns: "UNIQUE constraint failed: users.email".
    let message = sqlite.message
    if message.contains("users.provider_subject") { return .duplicate(field: "providerSubject") }
    if message.contains("users.phone_number") { return .duplicate(field: "phoneNumber") }
    if message.contains("users.username") { return .duplicate(field: "username") }
    if message.contains("users.email") { return .duplicate(field: "email") }
    return .duplicate(field: "id")
  }

  static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `text`, or `nil` when it is absent or blank.
  static func present(_ text: String?) -> String? {
    guard let text, !trimmed(text).isEmpty else { return nil }
    return text
  }

  static func optional(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
}
