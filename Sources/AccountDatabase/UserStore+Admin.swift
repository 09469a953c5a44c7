import Foundation

// Listing every account, for the emulator's admin endpoints and its web page.
extension UserStore {
  /// The order of ``users(orderedBy:descending:limit:offset:)``.
  public enum UserListOrder: Sendable, Hashable {
    /// By account ID (the Firebase Auth Emulator's only order).
    case userID
    /// By creation time, then account ID.
    case createdAt
  }

  /// A page of accounts.
  ///
  /// Each record is read as ``user(id:)`` reads it, so it carries every column the
  /// store has. An account deleted while the page is read is left out.
  ///
  /// - Parameters:
  ///   - order: the sort key; `descending` reverses it.
  ///   - limit: the most records returned (values below 0 count as 0).
  ///   - offset: how many records of the order to skip first (below 0 counts as 0).
  /// - Returns: at most `limit` records.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func users(
    orderedBy order: UserListOrder = .createdAt, descending: Bool = false, limit: Int,
    offset: Int = 0
  ) throws -> [UserRecord] {
    let direction = descending ? "DESC" : "ASC"
    let orderClause =
      switch order {
      case .userID: "id \(direction)"
      case .createdAt: "created_at \(direction), id \(direction)"
      }
    let ids = try locked { db in
      try db.query(
        "SELECT id FROM users ORDER BY \(orderClause) LIMIT ? OFFSET ?",
        [.integer(Int64(max(0, limit))), .integer(Int64(max(0, offset)))]
      ) { $0.text(0) ?? "" }
    }
    return try ids.compactMap { try user(id: $0) }
  }
}
