import Foundation
import Testing
import UserBackendKit

@testable import UserBackendContracts

/// The user fields the memory backend cannot produce (phone number, display name), and
/// the literal email comparison, checked on the matcher directly.
@Suite(.timeLimit(.minutes(1))) struct ExpectationMatcherTests {
  let matcher = ExpectationMatcher(records: [:])
  let user = User(
    id: "u1", email: "alice@example.com", phoneNumber: "+15551234567", displayName: "Alice",
    providers: ["phone"])

  @Test func phoneNumberAndDisplayNameAreCompared() {
    #expect(
      matcher.differences(UserShape(phoneNumber: "+15551234567"), user: user, isNewUser: nil)
        .isEmpty)
    #expect(
      matcher.differences(UserShape(phoneNumber: "+15550000000"), user: user, isNewUser: nil)
        == ["phoneNumber \"+15550000000\" but got \"+15551234567\""])
    #expect(
      matcher.differences(UserShape(displayName: "Bob"), user: user, isNewUser: nil)
        == ["displayName \"Bob\" but got \"Alice\""])
  }

  /// The email the contract writes is the canonical one; another spelling from the backend
  /// fails even though the canonicaliser would map it to the same address.
  @Test(arguments: [" ALICE@EXAMPLE.COM", "Alice@example.com", "alice@example.com "])
  func anotherSpellingOfTheEmailFails(_ answered: String) {
    var spelled = user
    spelled.email = answered
    #expect(
      matcher.differences(UserShape(email: "alice@example.com"), user: spelled, isNewUser: nil)
        == ["email \"alice@example.com\" but got \"\(answered)\""])
  }

  @Test func isNewUserUnknownIsAMismatch() {
    #expect(
      matcher.differences(UserShape(isNewUser: false), user: user, isNewUser: nil)
        == ["isNewUser false but got unknown"])
  }
}
