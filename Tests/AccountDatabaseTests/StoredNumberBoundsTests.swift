import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Issue 16 item 6: numbers read back from the database are checked before use.
@Suite("UserStore: a tampered PBKDF2 iteration count", .timeLimit(.minutes(1)))
struct StoredNumberBoundsTests {
  @Test(
    "an iteration count above the maximum is a database error, not hours of PBKDF2 or a trap",
    arguments: [2_000_000_000, Int64(Int32.max) + 1, Int64.max])
  func tamperedIterations(_ iterations: Int64) throws {
    let store = try UserStore(passwordHashIterations: 1)
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    _ = try store.locked { db in
      try db.run("UPDATE users SET password_iterations = ?", [.integer(iterations)])
    }
    #expect {
      _ = try store.verifyPassword("secret1", userID: user.id)
    } throws: { error in
      guard case .database(let message) = error as? UserStoreError else { return false }
      return message.contains("iterations")
    }
  }

  @Test("counts from 1 up to the maximum verify", arguments: [1, 2] as [Int64])
  func validIterations(_ iterations: Int64) throws {
    let store = try UserStore(passwordHashIterations: Int(iterations))
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    #expect(try store.verifyPassword("secret1", userID: user.id))
    #expect(try !store.verifyPassword("wrong-secret", userID: user.id))
  }

  /// Below the range is damage as above it is (the right password must not read as a
  /// wrong one), and so is a row holding only part of a password: each names its column.
  @Test(
    "a count below 1, or a partial password row, is a database error naming the column",
    arguments: [
      ("password_iterations = 0", "users.password_iterations"),
      ("password_iterations = -1", "users.password_iterations"),
      ("password_iterations = -9223372036854775808", "users.password_iterations"),
      ("password_iterations = NULL", "users.password_iterations"),
      ("password_hash = NULL", "users.password_hash"),
      ("password_salt = NULL", "users.password_salt"),
    ])
  func belowTheRangeOrPartial(assignment: String, column: String) throws {
    let store = try UserStore(passwordHashIterations: 1)
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    _ = try store.locked { db in try db.run("UPDATE users SET \(assignment)") }
    for password in ["secret1", "wrong-secret"] {
      #expect {
        _ = try store.verifyPassword(password, userID: user.id)
      } throws: { error in
        guard case .database(let message) = error as? UserStoreError else { return false }
        return message.contains(column) && message.contains(user.id)
      }
    }
  }

  @Test("an account without any password is no match, not damage")
  func noPassword() throws {
    let store = try UserStore(passwordHashIterations: 1)
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    _ = try store.locked { db in
      try db.run(
        "UPDATE users SET password_hash = NULL, password_salt = NULL, password_iterations = NULL")
    }
    #expect(try !store.verifyPassword("secret1", userID: user.id))
  }

}
