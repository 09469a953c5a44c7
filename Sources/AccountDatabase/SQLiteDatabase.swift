import CSQLite
import Foundation
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value bound to, or read from, an SQLite statement.
enum SQLValue {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

/// An SQLite failure: the extended result code and SQLite's message (never bound values,
/// so never a secret).
struct SQLiteError: Error, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
  let code: Int32
  /// `sqlite3_errmsg` at the time of the failure.
  let message: String

  /// `true` for a UNIQUE or PRIMARY KEY constraint violation (`SQLITE_CONSTRAINT_UNIQUE`,
  /// `SQLITE_CONSTRAINT_PRIMARYKEY`: macros Swift does not import).
  var isUniqueViolation: Bool {
    code == SQLITE_CONSTRAINT | (8 << 8) || code == SQLITE_CONSTRAINT | (6 << 8)
  }

  var description: String { "SQLite error \(code): \(message)" }
}

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before `bind` returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement. Not thread-safe: used only by its ``Database``, which is only
/// used under the owning store's mutex.
final class Statement {
  let handle: OpaquePointer

  init(handle: OpaquePointer) { self.handle = handle }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement and binds `values` to parameters 1...n.
  func reset(binding values: [SQLValue], database: OpaquePointer) throws {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let result: Int32
      switch value {
      case .null: result = sqlite3_bind_null(handle, index)
      case .integer(let number): result = sqlite3_bind_int64(handle, index, number)
      case .real(let number): result = sqlite3_bind_double(handle, index, number)
      case .text(let text): result = Self.bind(text: text, to: handle, at: index)
      case .blob(let data):
        guard let count = Int32(exactly: data.count) else { throw Self.tooBig }
        result = data.withUnsafeBytes { buffer in
          sqlite3_bind_blob(handle, index, buffer.baseAddress, count, transientDestructor)
        }
      }
      guard result == SQLITE_OK else {
        throw SQLiteError(code: result, message: String(cString: sqlite3_errmsg(database)))
      }
    }
  }
}

extension Statement {
  /// `SQLITE_TOOBIG`: a value longer than SQLite's `Int32` length parameter.
  static let tooBig = SQLiteError(code: SQLITE_TOOBIG, message: "string or blob too big")

  /// Binds `text` as UTF-8 with its byte count, so an embedded NUL is part of the value
  /// (a length of -1 would make SQLite stop at the first NUL: `"a\0@x"` would be `"a"`).
  /// An empty string binds as empty text, never as NULL.
  static func bind(text: String, to handle: OpaquePointer, at index: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { bytes in
      guard let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
      guard let base = bytes.baseAddress, count > 0 else {
        return sqlite3_bind_text(handle, index, "", 0, transientDestructor)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
        sqlite3_bind_text(handle, index, pointer, count, transientDestructor)
      }
    }
  }
}

/// Column access for the current row of a stepping statement.
struct Row {
  let handle: OpaquePointer

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// The column as text, read with its byte count (`sqlite3_column_bytes`), so a NUL
  /// inside the value is kept; `nil` for SQL NULL. Invalid UTF-8 is repaired (U+FFFD).
  func text(_ column: Int32) -> String? {
    guard !isNull(column) else { return nil }
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    // column_bytes after column_text: the byte count of the UTF-8 form just produced.
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// A stored time (seconds since 1970 in a `REAL` column), checked: the column must hold
  /// a number within 0001-01-01…9999-12-31, else the file was altered or is corrupt.
  /// - Parameter field: `table.column`, named in the error (the value never is).
  /// - Throws: ``UserStoreError/database(message:)``.
  func date(_ column: Int32, _ field: String) throws -> Date {
    let type = sqlite3_column_type(handle, column)
    guard type == SQLITE_FLOAT || type == SQLITE_INTEGER,
      let date = DocumentTimestamp.checkedDate(secondsSince1970: real(column))
    else { throw Self.corruptTime(field) }
    return date
  }

  /// A stored document time (microseconds since 1970 in an `INTEGER` column), checked
  /// like ``date(_:_:)``.
  /// - Throws: ``UserStoreError/database(message:)``.
  func microsecondDate(_ column: Int32, _ field: String) throws -> Date {
    guard sqlite3_column_type(handle, column) == SQLITE_INTEGER,
      let date = DocumentTimestamp.checkedDate(microseconds: integer(column))
    else { throw Self.corruptTime(field) }
    return date
  }

  /// The error for a stored time that no build of this store writes.
  static func corruptTime(_ field: String) -> UserStoreError {
    .database(
      message: "the stored time in \(field) is not a time in 0001-01-01…9999-12-31: "
        + "the database file was altered or is corrupt")
  }

  func blob(_ column: Int32) -> Data? {
    if isNull(column) { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: pointer, count: count)
  }
}

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe on purpose: ``UserStore`` keeps it inside a `LockedValue`, so every use is
/// serialized and SQLite can run in its no-mutex mode. `@unchecked Sendable` only so the
/// mutex's closure can hand it to the store's helpers; it is never used outside the lock.
final class Database: @unchecked Sendable {
  private let handle: OpaquePointer
  private var statements: [String: Statement] = [:]

  /// Milliseconds a statement waits for another connection's lock: 5,000. SQLite's busy
  /// handler sleeps the calling thread meanwhile, so async callers run statements off the
  /// cooperative pool (``UserStore/waitingOffPool(_:)``).
  static let defaultBusyTimeout: Int32 = 5_000

  /// `true` when the database is a file (not `":memory:"`, a temporary or a URI database).
  let isFile: Bool

  /// Opens (creating when missing) the database at `path`; `":memory:"` is private to this
  /// connection. A new file is created with mode 0600. Every connection gets a busy timeout
  /// and foreign keys. Opening writes nothing to the file: a file is switched to WAL
  /// journaling only by ``enableWriteAheadLog()``, once its owner has recognised it.
  ///
  /// - Parameter busyTimeout: milliseconds to wait for another process's lock.
  /// - Throws: ``SQLiteError``.
  init(path: String, busyTimeout: Int32 = defaultBusyTimeout) throws {
    isFile = path != ":memory:" && !path.isEmpty && !path.hasPrefix("file:")
    if isFile {
      // The file holds password hashes: create it owner-only (SQLite gives its -wal and
      // -shm files the same mode). An existing file keeps its mode.
      let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
      if descriptor >= 0 { close(descriptor) }
    }
    var connection: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let result = sqlite3_open_v2(path, &connection, flags, nil)
    guard result == SQLITE_OK, let connection else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(connection)
      throw SQLiteError(code: result, message: message)
    }
    handle = connection
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeout)
    try execute(script: "PRAGMA foreign_keys=ON;")
  }

  /// Switches a file database to WAL journaling with `synchronous=NORMAL` (a no-op for an
  /// in-memory one). Writes the file's header, so it runs only after the file was
  /// recognised as one of ours.
  func enableWriteAheadLog() throws {
    guard isFile else { return }
    try execute(script: "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
  }

  /// The first column of the first row of `sql` as an integer (`PRAGMA user_version`, ...).
  func integer(_ sql: String) throws -> Int64 {
    try first(sql) { $0.integer(0) } ?? 0
  }

  deinit {
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements with no parameters (schema, pragmas).
  func execute(script: String) throws {
    var errorMessage: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(handle, script, nil, nil, &errorMessage)
    guard result == SQLITE_OK else {
      let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(errorMessage)
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message)
    }
  }

  /// Runs one statement to completion and returns the number of rows it changed.
  @discardableResult
  func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
    let statement = try prepared(sql)
    try statement.reset(binding: values, database: handle)
    defer { sqlite3_reset(statement.handle) }
    while try step(statement) {}
    return Int(sqlite3_changes(handle))
  }

  /// Runs a query and maps every row.
  func query<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Row) throws -> T) throws -> [T] {
    let statement = try prepared(sql)
    try statement.reset(binding: values, database: handle)
    defer { sqlite3_reset(statement.handle) }
    var rows: [T] = []
    while try step(statement) { rows.append(try map(Row(handle: statement.handle))) }
    return rows
  }

  /// Runs a query and maps its first row, or returns `nil` when there is none.
  func first<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Row) throws -> T) throws -> T? {
    try query(sql, values, map).first
  }

  /// Runs `body` inside `BEGIN DEFERRED ... COMMIT`: its reads see one state of the file
  /// (the read lock, or the WAL snapshot, is held from the first read to the end), even
  /// while another connection commits. `body` only reads.
  func readTransaction<T>(_ body: () throws -> T) throws -> T {
    try transaction(beginning: "BEGIN DEFERRED", body)
  }

  /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`, rolling back when it throws.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try transaction(beginning: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws.
  private func transaction<T>(beginning begin: String, _ body: () throws -> T) throws -> T {
    try run(begin)
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      _ = try? run("ROLLBACK")
      throw error
    }
  }

  private func prepared(_ sql: String) throws -> Statement {
    if let cached = statements[sql] { return cached }
    var pointer: OpaquePointer?
    let result = sqlite3_prepare_v2(handle, sql, -1, &pointer, nil)
    guard result == SQLITE_OK, let pointer else {
      throw SQLiteError(code: result, message: String(cString: sqlite3_errmsg(handle)))
    }
    let statement = Statement(handle: pointer)
    statements[sql] = statement
    return statement
  }

  /// Steps once: `true` when a row is available, `false` when done.
  private func step(_ statement: Statement) throws -> Bool {
    switch sqlite3_step(statement.handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      throw SQLiteError(
        code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
  }
}
