import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@Suite("UserStore: listing accounts", .timeLimit(.minutes(1)))
struct UserStoreAdminTests {
  @Test("users(orderedBy:) pages through every account by creation time or by ID")
  func listing() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    var created: [UserRecord] = []
    for index in 0..<5 {
      created.append(
        try store.createUser(NewUser(email: "u\(index)@example.com", password: "secret-12")))
      clock.advance(by: 1)
    }
    let byTime = created.map(\.id)
    #expect(try store.users(limit: 10).map(\.id) == byTime)
    #expect(try store.users(descending: true, limit: 10).map(\.id) == byTime.reversed())
    #expect(try store.users(limit: 2, offset: 1).map(\.id) == Array(byTime[1...2]))
    #expect(try store.users(orderedBy: .userID, limit: 10).map(\.id) == byTime.sorted())
    #expect(try store.users(limit: 0).isEmpty)
    #expect(try store.users(limit: -1, offset: -5).isEmpty)
    #expect(try store.users(limit: 10, offset: 5).isEmpty)
    // Each record is the one user(id:) reads.
    #expect(try store.users(limit: 1).first == store.user(id: byTime[0]))
    _ = try store.deleteUser(id: byTime[0])
    #expect(try store.users(limit: 10).count == 4)
  }
}
