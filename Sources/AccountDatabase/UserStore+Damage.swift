import Foundation
import UserBackendKit

// Damaged data in the database file (a time out of range, document fields that are not
// the store's JSON, an iteration count no build writes, SQLite's own "malformed"): the
// read fails with ``UserStoreError/database(message:)`` naming `table.column`, and the
// failure is reported to the operator, who cannot see it in a client's 500 answer.
extension UserStore {
  /// Calls `handler` with one line for each read that finds damaged data in this store:
  /// `damaged data in FILE: MESSAGE`, where the message names `table.column` and, for the
  /// `users` and `documents` tables, the row's user ID (never a stored value, a token or
  /// a code). Replaces an earlier handler. `baas emulator` prints the lines on standard
  /// error.
  public func reportDamage(to handler: @escaping @Sendable (String) -> Void) {
    damageHandler.withLock { $0 = handler }
  }

  /// `error`, after reporting it when it is damage.
  func reported(_ error: UserStoreError) -> UserStoreError {
    guard case .database(let message) = error, Self.isDamage(message),
      let handler = damageHandler.withLock({ $0 })
    else { return error }
    handler("damaged data in \(path): \(message)")
    return error
  }

  /// Whether a database error's message says the file's content is damaged.
  static func isDamage(_ message: String) -> Bool {
    ["altered or is corrupt", "malformed", "not a database"].contains { message.contains($0) }
  }

  /// Runs `body`, adding `(column value)` (a user ID, not a secret) to a damage message.
  static func namingRow<T>(_ column: String, _ value: String?, _ body: () throws -> T) throws
    -> T
  {
    do {
      return try body()
    } catch UserStoreError.database(let message) where isDamage(message) {
      throw UserStoreError.database(message: message + " (\(column) \(value ?? "NULL"))")
    }
  }
}
