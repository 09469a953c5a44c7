import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The account database's schema and its versions.
///
/// A file is stamped with SQLite's `PRAGMA application_id` (``applicationID``, the bytes
/// `UBKD`), so a foreign SQLite file is recognised, and `PRAGMA user_version` (the schema
/// version, ``currentVersion``). Opening a file:
///
/// - empty (new): the current schema is created and stamped;
/// - version 0 (written before versions existed: no application ID, our tables) or any
///   version below the current one: migrated, step by step, in one transaction;
/// - the current version: opened as is;
/// - a newer version, another application's SQLite file, or not an SQLite file at all:
///   refused with ``UserStoreFileError`` before anything is written (not even the WAL
///   journal mode, which lives in the file's header).
enum UserStoreSchema {
  /// `PRAGMA application_id` of an account database: `0x55424B44`, ASCII `UBKD`.
  static let applicationID: Int32 = 0x5542_4B44
  /// The schema version this build writes and reads.
  static let currentVersion = 4

  /// The steps from version `to - 1` to `to`, in order. Each runs in the opening
  /// transaction; the last one's `to` is ``currentVersion``. Version 1 is the first
  /// stamped schema: the tables of version 0 (created when missing), plus the stamps.
  /// Version 2 adds account management (``version2``); version 3 the per-user documents
  /// and NCMB user ACLs (``documents``); version 4 the sign-in facts of refresh tokens
  /// (``signInFacts``).
  static let migrations: [(to: Int, sql: String)] = [
    (1, tables), (2, version2), (3, documents), (4, signInFacts),
  ]

  /// Version 4: on `refresh_tokens`, what the issuer knows about the sign-in that started
  /// the token (text the store does not read: the emulator's Firebase sign-in provider,
  /// subject and time), so a refresh takes them from the server, never from the client
  /// (``UserStore/issueRefreshToken(userID:signInFacts:)``). `NULL` for tokens issued
  /// without facts: by the fake backend, and by versions before 4, whose emulator put the
  /// facts in the refresh token itself, where a client could edit them; the emulator
  /// refuses those tokens (`INVALID_REFRESH_TOKEN`, sign in again), since nothing the
  /// server holds says what they were.
  static let signInFacts = """
    ALTER TABLE refresh_tokens ADD COLUMN sign_in_facts TEXT;
    """

  /// Version 3: one document per account (its fields in the JSON encoding of
  /// `DocumentFieldCoding`, times in microseconds since 1970), deleted with the account;
  /// and the NCMB ACL a user object was given (JSON text; none stored = the default ACL).
  static let documents = """
    CREATE TABLE IF NOT EXISTS documents (
      user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      fields TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS user_acls (
      user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      acl TEXT NOT NULL
    );
    """

  /// The tables of version 1 (the same as version 0's, so a version 0 file needs no change
  /// beyond its stamps).
  static let tables = """
    CREATE TABLE IF NOT EXISTS users (
      id TEXT PRIMARY KEY,
      email TEXT,
      username TEXT,
      phone_number TEXT,
      display_name TEXT,
      provider TEXT NOT NULL,
      provider_subject TEXT,
      is_anonymous INTEGER NOT NULL DEFAULT 0,
      disabled INTEGER NOT NULL DEFAULT 0,
      password_hash BLOB,
      password_salt BLOB,
      password_iterations INTEGER,
      created_at REAL NOT NULL,
      updated_at REAL NOT NULL,
      valid_since REAL NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users(email);
    CREATE UNIQUE INDEX IF NOT EXISTS users_username ON users(username);
    CREATE UNIQUE INDEX IF NOT EXISTS users_phone_number ON users(phone_number);
    CREATE UNIQUE INDEX IF NOT EXISTS users_provider_subject ON users(provider, provider_subject);
    CREATE TABLE IF NOT EXISTS refresh_tokens (
      token_hash BLOB PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      family TEXT NOT NULL,
      created_at REAL NOT NULL,
      rotated_at REAL,
      revoked INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS refresh_tokens_user ON refresh_tokens(user_id);
    CREATE INDEX IF NOT EXISTS refresh_tokens_family ON refresh_tokens(family);
    CREATE TABLE IF NOT EXISTS session_tokens (
      token_hash BLOB PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS session_tokens_user ON session_tokens(user_id);
    CREATE TABLE IF NOT EXISTS phone_verifications (
      id TEXT PRIMARY KEY,
      phone_number TEXT NOT NULL,
      code TEXT NOT NULL,
      created_at REAL NOT NULL,
      expires_at REAL NOT NULL,
      failed_attempts INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS password_reset_requests (
      sequence INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL,
      requested_at REAL NOT NULL
    );
    """

  /// Version 2, account management: on `users`, whether the email is verified, the photo
  /// URL and the last sign-in time (seconds since 1970, `NULL` until the next sign-in);
  /// on `refresh_tokens`, when the sign-in that started the token's family authenticated
  /// (copied to every rotation, so "recent sign-in" survives refreshes; `NULL` for
  /// families started before version 2, which count as old); and the out-of-band codes
  /// (password reset, email verification) the servers "mail". Codes are kept in clear, as
  /// phone codes are: the emulator lists them for tests, as the Firebase Auth Emulator
  /// does. A code is single use (`used_at`) and expires (`expires_at`).
  static let version2 = """
    ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN photo_url TEXT;
    ALTER TABLE users ADD COLUMN last_sign_in_at REAL;
    ALTER TABLE refresh_tokens ADD COLUMN authenticated_at REAL;
    CREATE TABLE IF NOT EXISTS out_of_band_codes (
      code TEXT PRIMARY KEY,
      request_type TEXT NOT NULL,
      email TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at REAL NOT NULL,
      expires_at REAL NOT NULL,
      used_at REAL
    );
    CREATE INDEX IF NOT EXISTS out_of_band_codes_email ON out_of_band_codes(email);
    CREATE INDEX IF NOT EXISTS out_of_band_codes_user ON out_of_band_codes(user_id);
    """

  /// The tables a version 0 file may hold (older builds created them one by one).
  static let knownTables: Set<String> = [
    "users", "refresh_tokens", "session_tokens", "phone_verifications",
    "password_reset_requests",
  ]
  /// Columns of `users` every version has: a foreign `users` table lacks them.
  static let userColumns: Set<String> = [
    "id", "email", "username", "phone_number", "provider", "password_hash", "password_salt",
    "password_iterations", "valid_since",
  ]

  /// What a file holds, read without writing.
  enum State: Equatable {
    /// No tables and no stamps: a new file.
    case empty
    /// Ours, at `version` (0 for a file from before versions).
    case version(Int)
  }

  /// How long, in seconds, an opening connection keeps retrying while other connections
  /// hold the file's locks: 30 s. Several processes opening one new file at once meet
  /// here, and SQLite answers some steps "database is locked" at once, without its busy
  /// handler: `PRAGMA journal_mode=WAL` reads the header (a read lock) before it asks for
  /// the write lock, so two connections switching together, or one switching while
  /// another creates the schema, deadlock and one is refused (CI saw six openers fail).
  /// Every step only reads or runs in a transaction that rolls back, so the whole
  /// recognition is simply tried again.
  static let openingRetryLimit: TimeInterval = 30

  /// Recognises `database`, then creates or migrates its schema and switches a file to
  /// WAL; a step refused with `SQLITE_BUSY` (another opener holds a lock) is retried from
  /// the start, pausing 1 ms doubling to 100 ms, for at most ``openingRetryLimit``. The
  /// pause sleeps the calling thread, as SQLite's own busy handler does for every
  /// statement of this synchronous store; it happens only while other connections open
  /// or migrate the same file. Async code opens a file through
  /// ``UserStore/open(path:passwordHashIterations:phoneCodeLifetime:clock:randomness:)``,
  /// which runs this on the store's dispatch queue: never on a cooperative thread.
  /// (Decision: not a `Task.sleep` retry: the opening is synchronous all the way down, the
  /// initializer included, and one hop for the whole opening keeps it so.)
  ///
  /// - Parameter path: the file, for errors.
  /// - Throws: ``UserStoreFileError`` for a newer, foreign or non-SQLite file (nothing
  ///   written); ``SQLiteError`` when SQLite fails, `SQLITE_BUSY` after
  ///   ``openingRetryLimit``.
  static func prepare(_ database: Database, path: String) throws {
    let deadline = ProcessInfo.processInfo.systemUptime + openingRetryLimit
    var pause: useconds_t = 1_000
    while true {
      do {
        return try prepareOnce(database, path: path)
      } catch let error as SQLiteError
        where error.code & 0xFF == SQLITE_BUSY
        && ProcessInfo.processInfo.systemUptime < deadline
      {
        usleep(pause)
        pause = min(pause * 2, 100_000)
      }
    }
  }

  /// One try of ``prepare(_:path:)``.
  private static func prepareOnce(_ database: Database, path: String) throws {
    // The stamps and the tables are separate statements: read them in one read transaction,
    // or another process's schema transaction can commit between two of them (a stamp of
    // the new file next to the other's old value reads as another application's file).
    guard
      try database.readTransaction({ try state(of: database, path: path) })
        != .version(currentVersion)
    else {
      try database.enableWriteAheadLog()
      return
    }
    try database.enableWriteAheadLog()
    try database.transaction {
      // Again under the write lock: another process may have created or migrated it.
      let found: Int
      switch try state(of: database, path: path) {
      case .empty: found = 0
      case .version(let version): found = version
      }
      guard found < currentVersion else { return }
      for step in migrations where step.to > found {
        try database.execute(script: step.sql)
      }
      try database.execute(
        script: "PRAGMA application_id=\(applicationID); PRAGMA user_version=\(currentVersion);"
      )
    }
  }

  /// Classifies the file by its stamps and tables; only reads. Call it inside a transaction:
  /// its reads are several statements.
  /// - Throws: ``UserStoreFileError`` for a file that is not an account database this build
  ///   can open.
  static func state(of database: Database, path: String) throws -> State {
    let application: Int32
    let version: Int
    let tables: [String]
    do {
      application = Int32(truncatingIfNeeded: try database.integer("PRAGMA application_id"))
      version = Int(try database.integer("PRAGMA user_version"))
      tables = try database.query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
      ) { $0.text(0) ?? "" }
    } catch let error as SQLiteError where error.code & 0xFF == SQLITE_NOTADB {
      throw UserStoreFileError(path: path, problem: .notADatabase)
    }
    if application == applicationID {
      guard version >= 0 else {
        throw UserStoreFileError(
          path: path, problem: .foreignApplication(applicationID: application, version: version))
      }
      guard version <= currentVersion else {
        throw UserStoreFileError(path: path, problem: .newerVersion(version))
      }
      return .version(version)
    }
    guard application == 0, version == 0 else {
      throw UserStoreFileError(
        path: path, problem: .foreignApplication(applicationID: application, version: version))
    }
    if tables.isEmpty { return .empty }
    let columns = try database.query("SELECT name FROM pragma_table_info('users')") {
      $0.text(0) ?? ""
    }
    guard Set(tables).isSubset(of: knownTables), userColumns.isSubset(of: Set(columns)) else {
      throw UserStoreFileError(path: path, problem: .foreignSchema)
    }
    return .version(0)
  }
}

/// A file that is not an account database this build can open: written by a newer build,
/// another application's SQLite database, or not SQLite at all. The file was left as it
/// was (nothing is written before it is recognised).
///
/// `description` names the file and the versions, e.g. `"/tmp/users.sqlite: an account
/// database of schema version 7, newer than this build reads (0…1); the file was left
/// unchanged"`. Paths are not secrets; the file's contents never appear.
public struct UserStoreFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with the file.
  public enum Problem: Sendable, Hashable {
    /// An account database of a schema `version` above ``UserStoreFileError/supportedVersions``.
    case newerVersion(Int)
    /// An SQLite database stamped by another application (`PRAGMA application_id`, with its
    /// `PRAGMA user_version`).
    case foreignApplication(applicationID: Int32, version: Int)
    /// An SQLite database without stamps whose tables are not an account database's.
    case foreignSchema
    /// Not an SQLite database (SQLite's `SQLITE_NOTADB`).
    case notADatabase
  }

  /// The schema versions this build opens (older ones are migrated).
  public static let supportedVersions = 0...UserStoreSchema.currentVersion

  /// The file's path as given.
  public let path: String
  /// What is wrong with it.
  public let problem: Problem

  /// The problem without the path: `"an account database of schema version 7, newer than
  /// this build reads (0…1); the file was left unchanged"`.
  public var reason: String {
    let supported =
      "\(Self.supportedVersions.lowerBound)…\(Self.supportedVersions.upperBound)"
    let expected =
      "an account database (SQLite application ID 0x\(hex(UserStoreSchema.applicationID)), "
      + "schema version \(supported))"
    let text: String
    switch problem {
    case .newerVersion(let version):
      text =
        "an account database of schema version \(version), newer than this build reads "
        + "(\(supported)): open it with a newer build"
    case .foreignApplication(let application, let version):
      text =
        "an SQLite database of another application (application ID 0x\(hex(application)), "
        + "user_version \(version)), not \(expected)"
    case .foreignSchema:
      text =
        "an SQLite database of another application (its tables are not an account "
        + "database's), not \(expected)"
    case .notADatabase:
      text = "not an SQLite database; expected \(expected)"
    }
    return text + "; the file was left unchanged"
  }

  /// `"<path>: <reason>"`.
  public var description: String { "\(path): \(reason)" }

  private func hex(_ value: Int32) -> String {
    let digits = String(UInt32(bitPattern: value), radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }
}
