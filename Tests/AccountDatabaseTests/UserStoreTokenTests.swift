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

  @Test func rotationIssuesANewTokenAndRejectsTheOldOneOnceTheNewOneIsUsed() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let rotated = try store.rotateRefreshToken(first)
    #expect(rotated.userID == record.id)
    #expect(rotated.refreshToken != first)
    #expect(try store.refreshTokenRotationCount(userID: record.id) == 1)
    _ = try store.rotateRefreshToken(rotated.refreshToken)
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
  }

  @Test func reusingARotatedTokenRevokesTheFamilyOnly() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let otherDevice = try store.issueRefreshToken(userID: record.id)
    let second = try store.rotateRefreshToken(first).refreshToken
    let third = try store.rotateRefreshToken(second).refreshToken
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(third) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(second) }
    #expect(try store.rotateRefreshToken(otherDevice).userID == record.id)
  }

  /// The token rotated last, presented again while its successor was never presented, is
  /// a retry (the answer was lost: the client was killed, or its session write failed,
  /// after the store committed): answered with a new successor, the lost one revoked, the
  /// family's sign-in time kept. Before, it revoked the family and signed the user out
  /// for good.
  @Test func aRetryOfTheLastRotationIsAnsweredAgain() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let signedInAt = try store.authenticationTime(refreshToken: first)
    clock.advance(by: 60)
    let lost = try store.rotateRefreshToken(first).refreshToken
    clock.advance(by: 60)
    let retried = try store.rotateRefreshToken(first)
    #expect(retried.userID == record.id)
    #expect(retried.refreshToken != lost)
    #expect(retried.refreshToken != first)
    #expect(try store.authenticationTime(refreshToken: retried.refreshToken) == signedInAt)
    // The retried answer is the family's one live token.
    let next = try store.rotateRefreshToken(retried.refreshToken).refreshToken
    #expect(try store.rotateRefreshToken(next).userID == record.id)
  }

  /// One retry per rotation: a token answered again and again would let a copy of it be
  /// used unseen for as long as the rightful client does not refresh (fresh-eyes check).
  /// A second retry is a reuse and revokes the family.
  @Test func aSecondRetryOfTheSameRotationIsAReuse() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    _ = try store.rotateRefreshToken(first)
    let retried = try store.rotateRefreshToken(first).refreshToken
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(retried) }
  }

  /// A retry cannot tell a lost answer from a copied token, so the successor it revoked
  /// stays a signal: presenting it revokes the family. A thief answered as a retry is
  /// signed out when the rightful client next refreshes.
  @Test func theSuccessorRevokedByARetryRevokesTheFamilyWhenPresented() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let rightful = try store.rotateRefreshToken(first).refreshToken
    let copy = try store.rotateRefreshToken(first).refreshToken
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(rightful) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(copy) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(first) }
  }

  /// The retry rule belongs to rotation: a stable token is handed back as it is.
  @Test func aRetryAfterARotationOfAnotherFamilyIsStillAReuse() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let first = try store.issueRefreshToken(userID: record.id)
    let second = try store.rotateRefreshToken(first).refreshToken
    // Another device's family rotating does not make `first` a reuse or a retry of it.
    let otherDevice = try store.issueRefreshToken(userID: record.id)
    _ = try store.rotateRefreshToken(otherDevice)
    let retried = try store.rotateRefreshToken(first).refreshToken
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(second) }
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(retried) }
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
