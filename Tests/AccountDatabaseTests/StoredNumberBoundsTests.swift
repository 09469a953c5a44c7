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

  @Test(
    "counts up to the maximum still verify; zero or negative counts never match",
    arguments: [1, 2] as [Int64])
  func validIterations(_ iterations: Int64) throws {
    let store = try UserStore(passwordHashIterations: Int(iterations))
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    #expect(try store.verifyPassword("secret1", userID: user.id))
    for bad in [0, -5] as [Int64] {
      _ = try store.locked { db in
        try db.run("UPDATE users SET password_iterations = ?", [.integer(bad)])
      }
      #expect(try !store.verifyPassword("secret1", userID: user.id))
    }
  }

}
