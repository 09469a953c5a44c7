import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Text crosses into SQLite and back with its length: a NUL inside a value neither cuts it
/// short (two values that share a prefix up to a NUL are two values) nor is accepted in an
/// identifier. One test per text column of the store.
@Suite("UserStore: text keeps its length through SQLite", .timeLimit(.minutes(1)))
struct UserStoreTextTests {
  @Test func displayNameWithNULRoundTrips() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "ann@example.com", displayName: "a\u{0}b"))
    #expect(try store.user(id: record.id)?.displayName == "a\u{0}b")
    try store.updateProfile(userID: record.id, displayName: "\u{0}c\u{0}")
    #expect(try store.user(id: record.id)?.displayName == "\u{0}c\u{0}")
    try store.updateProfile(userID: record.id, displayName: "")
    #expect(try store.user(id: record.id)?.displayName == "")
  }

  @Test func providerSubjectsThatDifferAfterANULAreTwoAccounts() throws {
    let store = try makeStore()
    let first = try store.createUser(
      NewUser(provider: "apple.com", providerSubject: "sub\u{0}one"))
    #expect(try store.user(provider: "apple.com", subject: "sub\u{0}two") == nil)
    #expect(try store.user(provider: "apple.com", subject: "sub") == nil)
    #expect(try store.user(provider: "apple.com", subject: "sub\u{0}one") == first)
    let second = try store.createUser(
      NewUser(provider: "apple.com", providerSubject: "sub\u{0}two"))
    #expect(second.id != first.id)
    #expect(try store.userCount() == 2)
  }

  @Test func anIDWithATailAfterANULIsNoAccount() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(username: "ann", password: "secret1"))
    let forged = record.id + "\u{0}tail"
    #expect(try store.user(id: forged) == nil)
    #expect(throws: UserStoreError.userNotFound) { try store.issueRefreshToken(userID: forged) }
    #expect(throws: UserStoreError.userNotFound) {
      try store.updatePassword(userID: forged, to: "other-pw")
    }
    #expect(throws: UserStoreError.userNotFound) {
      _ = try store.createSessionToken(userID: forged)
    }
    #expect(try store.deleteUser(id: forged) == false)
    #expect(try store.verifyPassword("secret1", userID: record.id))
    #expect(try store.userCount() == 1)
  }

  @Test func tokensWithATailAfterANULAreUnknown() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(username: "ann", password: "secret1"))
    let refresh = try store.issueRefreshToken(userID: record.id)
    #expect(throws: UserStoreError.invalidRefreshToken) {
      _ = try store.rotateRefreshToken(refresh + "\u{0}x")
    }
    let session = try store.createSessionToken(userID: record.id)
    #expect(try store.userID(forSessionToken: session + "\u{0}x") == nil)
    #expect(try store.userID(forSessionToken: session) == record.id)
  }

  @Test func aVerificationIDWithATailAfterANULIsUnknown() throws {
    let store = try makeStore()
    let verification = try store.startPhoneVerification(phoneNumber: "+819012345678")
    #expect(throws: UserStoreError.unknownVerification) {
      _ = try store.completePhoneVerification(
        verificationID: verification.verificationID + "\u{0}x", code: verification.code)
    }
    #expect(
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: verification.code)
        == "+819012345678")
  }

  /// Lookups by an identifier that only matches up to a NUL find nothing.
  @Test func lookupsWithATailAfterANULFindNothing() throws {
    let store = try makeStore()
    _ = try store.createUser(
      NewUser(
        email: "a@example.com", username: "ann", password: "secret1",
        phoneNumber: "+819012345678"))
    #expect(try store.user(username: "ann\u{0}other") == nil)
    #expect(try store.user(email: "a@example.com\u{0}.evil") == nil)
    #expect(try store.user(phoneNumber: "+819012345678\u{0}9") == nil)
  }

  /// Control and format characters are refused in every identifier by the store itself,
  /// with the portable error the client raises for the same input.
  @Test(arguments: [
    "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{200B}", "\u{202E}", "\u{FEFF}",
  ])
  func controlAndFormatCharactersAreRefusedInIdentifiers(character: String) throws {
    let store = try makeStore()
    #expect(throws: UserBackendError(.invalidEmail)) {
      try store.createUser(NewUser(email: "a\(character)@example.com", password: "secret1"))
    }
    let username = #expect(throws: UserBackendError.self) {
      try store.createUser(NewUser(username: "a\(character)b", password: "secret1"))
    }
    #expect(username?.field == "username")
    let phone = #expect(throws: UserBackendError.self) {
      try store.createUser(NewUser(phoneNumber: "+8190\(character)12345678", provider: "phone"))
    }
    #expect(phone?.field == "phoneNumber")
    #expect(throws: UserBackendError(.invalidEmail)) {
      try store.recordPasswordResetRequest(email: "a\(character)@example.com")
    }
    #expect(try store.userCount() == 0)
    #expect(try store.passwordResetRequests().isEmpty)
  }
}

extension UserBackendError {
  /// The field of an `invalidInput` error, else `nil`.
  var field: String? {
    if case .invalidInput(let field, _) = code { return field }
    return nil
  }
}
