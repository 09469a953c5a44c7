import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

@Suite(.timeLimit(.minutes(2))) struct UserStoreTokenTests {
  @Test func refreshTokensAreOpaqueAndStoredHashed() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let token = try store.issueRefreshToken(userID: record.id)
    #expect(token.count == 43)
    #expect(token != (try store.issueRefreshToken(userID: record.id)))
    let stored = try store.locked { db in
      try db.query("SELECT token_hash FROM refresh_tokens") { $0.blob(0) ?? Data() }
    }
    #expect(stored.contains(Crypto.sha256(Data(token.utf8))))
    #expect(!stored.contains(Data(token.utf8)))
  }

  @Test func rotationIssuesANewTokenAndRejectsTheOldOne() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let rotated = try store.rotateRefreshToken(first)
    #expect(rotated.userID == record.id)
    #expect(rotated.refreshToken != first)
    #expect(try store.refreshTokenRotationCount(userID: record.id) == 1)
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
  }

  @Test func reusingARotatedTokenRevokesTheFamilyOnly() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let otherDevice = try store.issueRefreshToken(userID: record.id)
    let second = try store.rotateRefreshToken(first).refreshToken
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(second) }
    #expect(try store.rotateRefreshToken(otherDevice).userID == record.id)
  }

  @Test func stableTokensAreKeptAndMayBeReusedUntilRevoked() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let token = try store.issueRefreshToken(userID: record.id)
    for _ in 0..<3 {
      let redeemed = try store.redeemRefreshToken(token, policy: .stable)
      #expect(redeemed == (record.id, token))
    }
    #expect(try store.refreshTokenRotationCount(userID: record.id) == 0)
    try store.revokeRefreshTokens(userID: record.id)
    #expect(throws: UserStoreError.invalidRefreshToken) {
      try store.redeemRefreshToken(token, policy: .stable)
    }
  }

  @Test func unknownRevokedAndDisabledAreRejected() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken("nope") }
    let revoked = try store.issueRefreshToken(userID: record.id)
    try store.revokeRefreshTokens(userID: record.id)
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(revoked) }
    let live = try store.issueRefreshToken(userID: record.id)
    try store.setDisabled(userID: record.id, true)
    #expect(throws: UserStoreError.userDisabled) { try store.rotateRefreshToken(live) }
    try store.setDisabled(userID: record.id, false)
    #expect(try store.rotateRefreshToken(live).userID == record.id)
    #expect(throws: UserStoreError.userNotFound) { try store.issueRefreshToken(userID: "none") }
  }

  @Test func passwordChangeRevokesRefreshTokensAndBumpsValidSince() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let record = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    let token = try store.issueRefreshToken(userID: record.id)
    clock.advance(by: 60)
    try store.updatePassword(userID: record.id, to: "secret2")
    #expect(try store.user(id: record.id)?.validSince == clock.now())
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(token) }
  }

  @Test func phoneCodeIsSixDigitsAndSingleUse() throws {
    let store = try makeStore()
    let verification = try store.startPhoneVerification(phoneNumber: "+819012345678")
    #expect(verification.code.count == 6)
    #expect(verification.code.allSatisfy(\.isASCII) && Int(verification.code) != nil)
    #expect(try store.pendingPhoneVerifications() == [verification])
    let phone = try store.completePhoneVerification(
      verificationID: verification.verificationID, code: verification.code)
    #expect(phone == "+819012345678")
    #expect(throws: UserStoreError.unknownVerification) {
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: verification.code)
    }
    #expect(try store.pendingPhoneVerifications().isEmpty)
  }

  @Test func wrongPhoneCodeKeepsTheVerificationPending() throws {
    let store = try makeStore()
    let verification = try store.startPhoneVerification(phoneNumber: "+15551234567")
    let wrong = verification.code == "000000" ? "111111" : "000000"
    #expect(throws: UserStoreError.invalidVerificationCode) {
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: wrong)
    }
    #expect(
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: verification.code) == "+15551234567")
  }

  @Test func phoneCodeExpiresByTheInjectedClock() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock, phoneCodeLifetime: 120)
    let verification = try store.startPhoneVerification(phoneNumber: "+15551234567")
    #expect(verification.expiresAt == clock.now().addingTimeInterval(120))
    clock.advance(by: 120)
    #expect(try store.pendingPhoneVerifications().isEmpty)
    #expect(throws: UserStoreError.verificationExpired) {
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: verification.code)
    }
    #expect(throws: UserStoreError.unknownVerification) {
      try store.completePhoneVerification(verificationID: "missing", code: "123456")
    }
  }

  @Test func tooManyWrongCodesDropTheVerification() throws {
    let store = try makeStore()
    let verification = try store.startPhoneVerification(phoneNumber: "+15551234567")
    let wrong = verification.code == "000000" ? "111111" : "000000"
    for _ in 0..<UserStore.maximumPhoneCodeAttempts {
      #expect(throws: UserStoreError.invalidVerificationCode) {
        try store.completePhoneVerification(
          verificationID: verification.verificationID, code: wrong)
      }
    }
    #expect(throws: UserStoreError.unknownVerification) {
      try store.completePhoneVerification(
        verificationID: verification.verificationID, code: verification.code)
    }
  }

  @Test func phoneVerificationDescriptionHidesTheCode() throws {
    let store = try makeStore()
    let verification = try store.startPhoneVerification(phoneNumber: "+15551234567")
    #expect(!"\(verification)".contains(verification.code))
  }
}
