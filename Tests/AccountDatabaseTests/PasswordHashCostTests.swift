import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// `baas emulator --password-hash-cost N`: the store's cost applies to passwords set from
/// then on; hashes stored at another cost keep verifying.
@Suite("UserStore: the PBKDF2 cost of new passwords", .timeLimit(.minutes(1)))
struct PasswordHashCostTests {
  /// The iteration count stored with the user's password.
  static func storedIterations(_ store: UserStore, _ userID: String) throws -> Int64? {
    try store.locked { db in
      try db.first("SELECT password_iterations FROM users WHERE id = ?", [.text(userID)]) {
        $0.integer(0)
      }
    }
  }

  @Test(
    "a store opened with cost N hashes new passwords with N iterations", arguments: [1, 7, 10_000])
  func newPasswordsUseTheCost(cost: Int) throws {
    let store = try UserStore(passwordHashIterations: cost)
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    #expect(try Self.storedIterations(store, user.id) == Int64(cost))
    #expect(try store.verifyPassword("secret1", userID: user.id))
  }

  @Test("a password stored at one cost still verifies after reopening at another")
  func oldHashesKeepTheirCost() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("hash-cost-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("users.sqlite").path
    let userID = try UserStore(path: path, passwordHashIterations: 3)
      .createUser(NewUser(email: "a@example.com", password: "secret1")).id
    let reopened = try UserStore(path: path, passwordHashIterations: 5)
    #expect(try reopened.verifyPassword("secret1", userID: userID))
    #expect(try Self.storedIterations(reopened, userID) == 3)
    let second = try reopened.createUser(NewUser(email: "b@example.com", password: "secret2"))
    #expect(try Self.storedIterations(reopened, second.id) == 5)
  }
}
