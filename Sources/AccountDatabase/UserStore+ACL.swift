import Foundation
import UserBackendKit

/// The NCMB ACL of a user object (schema version 3, table `user_acls`), kept as the JSON
/// text the client sent (`{"<objectId>":{"read":true,"write":true}}`) and deleted with the
/// account. No stored ACL means the emulator's default for new users.
extension UserStore {
  /// The stored ACL JSON of `userID`, or `nil` when none was set.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func userACL(userID: String) throws -> String? {
    try locked { db in
      try db.first("SELECT acl FROM user_acls WHERE user_id = ?", [.text(userID)]) {
        $0.text(0)
      } ?? nil
    }
  }

  /// Stores the ACL JSON of `userID`, replacing the previous one.
  /// - Throws: ``UserStoreError/userNotFound`` when no account has `userID`;
  ///   ``UserStoreError/database(message:)``.
  public func setUserACL(userID: String, json: String) throws {
    try locked { db in
      try db.transaction {
        guard try db.first("SELECT 1 FROM users WHERE id = ?", [.text(userID)], { _ in 1 }) != nil
        else { throw UserStoreError.userNotFound }
        try db.run(
          """
          INSERT INTO user_acls (user_id, acl) VALUES (?, ?)
          ON CONFLICT(user_id) DO UPDATE SET acl = excluded.acl
          """, [.text(userID), .text(json)])
      }
    }
  }
}
