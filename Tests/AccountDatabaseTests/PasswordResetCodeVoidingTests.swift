import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Attack round 6, L5: a password-reset code sent to the old address still reset the
/// password after the email (or the password) had changed, so whoever kept reading the old
/// mailbox could take the account back. A change of either voids the account's unused
/// reset codes, in the store the fake and the emulator share.
@Suite("UserStore: a change voids outstanding password-reset codes", .timeLimit(.minutes(1)))
struct PasswordResetCodeVoidingTests {
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case email, password, otherReset
    var testDescription: String { rawValue }
  }

  @Test("a reset code sent before the change is refused", arguments: Change.allCases)
  func resetCodeIsVoided(change: Change) throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    let stale = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
    switch change {
    case .email: try store.updateEmail(userID: ann.id, to: "ann@new.example")
    case .password: try store.updatePassword(userID: ann.id, to: "changed22")
    case .otherReset:
      let other = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
      try store.completePasswordReset(code: other.code, newPassword: "changed22")
    }
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.completePasswordReset(code: stale.code, newPassword: "taken-over-3")
    }
    #expect(try !store.verifyPassword("taken-over-3", userID: ann.id))
    #expect(try store.outOfBandCodes().allSatisfy { $0.requestType != .passwordReset })
  }

  @Test func aCodeSentAfterTheChangeWorksAndOtherAccountsKeepTheirs() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    let bob = try store.createUser(NewUser(email: "bob@example.com", password: "secret1"))
    let bobs = try store.issueOutOfBandCode(.passwordReset, userID: bob.id)
    try store.updatePassword(userID: ann.id, to: "changed22")
    let fresh = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
    try store.completePasswordReset(code: fresh.code, newPassword: "third333")
    #expect(try store.verifyPassword("third333", userID: ann.id))
    try store.completePasswordReset(code: bobs.code, newPassword: "bobs-new-4")
    #expect(try store.verifyPassword("bobs-new-4", userID: bob.id))
  }

  @Test func anEmailChangeToTheSameAddressKeepsTheCode() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    let code = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
    try store.updateEmail(userID: ann.id, to: "ANN@example.com")
    try store.completePasswordReset(code: code.code, newPassword: "changed22")
    #expect(try store.verifyPassword("changed22", userID: ann.id))
  }
}
