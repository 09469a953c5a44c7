import Foundation
import Testing

@testable import AccountDatabase
import UserBackendKit

@Suite(.timeLimit(.minutes(2))) struct UserStoreRandomnessTests {
  /// Two stores with the same seed hand out the same account IDs and SMS codes.
  @Test func aSeededStoreIsReproducible() throws {
    func run(seed: UInt64) throws -> [String] {
      let store = try UserStore(
        passwordHashIterations: 1, clock: ManualClock(), randomness: .seeded(seed))
      let user = try store.createUser(NewUser(email: "a@example.com", provider: "password"))
      let verification = try store.startPhoneVerification(phoneNumber: "+15550000001")
      return [user.id, verification.verificationID, verification.code]
    }
    let first = try run(seed: 42)
    #expect(try run(seed: 42) == first)
    #expect(try run(seed: 43) != first)
  }

  @Test func seededUUIDsAreVersion4AndCodesHaveSixDigits() throws {
    let randomness = UserStoreRandomness.seeded(7)
    let uuid = randomness.uuid().uuidString
    #expect(Array(uuid)[14] == "4")
    #expect("89AB".contains(Array(uuid)[19]))
    #expect(randomness.bytes(13).count == 13)
    for _ in 0..<100 { #expect((0..<10).contains(randomness.int(in: 0..<10))) }
    #expect(randomness.isSeeded)
    #expect(!UserStoreRandomness.system.isSeeded)
  }

  @Test func theSystemSourceDiffersBetweenStores() throws {
    let ids = try (0..<2).map { _ in
      try UserStore(passwordHashIterations: 1).createUser(
        NewUser(email: "a@example.com", provider: "password")
      ).id
    }
    #expect(ids[0] != ids[1])
  }
}
