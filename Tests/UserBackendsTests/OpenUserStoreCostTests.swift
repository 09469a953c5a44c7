import Foundation
import Testing
import UserBackendKit
import UserBackends

@testable import AccountDatabase

/// `UserBackends.openUserStore(atPath:passwordHashIterations:)` passes the cost to the
/// store (`baas emulator --password-hash-cost`).
@Suite("UserBackends.openUserStore: the PBKDF2 cost", .timeLimit(.minutes(1)))
struct OpenUserStoreCostTests {
  @Test("the given cost hashes new passwords; the default stays 10,000", arguments: [nil, 1, 42])
  func cost(_ cost: Int?) async throws {
    let store =
      if let cost {
        try await UserBackends.openUserStore(atPath: ":memory:", passwordHashIterations: cost)
      } else {
        try await UserBackends.openUserStore(atPath: ":memory:")
      }
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    let stored = try store.locked { db in
      try db.first("SELECT password_iterations FROM users WHERE id = ?", [.text(user.id)]) {
        $0.integer(0)
      }
    }
    #expect(stored == Int64(cost ?? 10_000))
  }
}
