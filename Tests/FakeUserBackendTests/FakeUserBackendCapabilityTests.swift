import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// An unsigned test ID token from an identity provider.
func providerToken(subject: String?, nonce: String?, email: String? = nil, expires: Date? = nil)
  -> String
{
  var claims: [String: Any] = ["iss": "https://appleid.apple.com", "aud": "app"]
  if let subject { claims["sub"] = subject }
  if let nonce { claims["nonce"] = nonce }
  if let email { claims["email"] = email }
  if let expires { claims["exp"] = Int(expires.timeIntervalSince1970) }
  return JSONWebToken.unsigned(claims: claims)
}

@Suite(.timeLimit(.minutes(2))) struct FakeUserBackendCapabilityTests {
  @Test func anonymousSignInCreatesAGuest() async throws {
    let fixture = try Fixture()
    let first = try await fixture.backend.signInAnonymously()
    let second = try await fixture.backend.signInAnonymously()
    #expect(first.isNewUser && first.user.isAnonymous)
    #expect(first.user.providers == ["anonymous"])
    #expect(first.user.id != second.user.id)
    #expect(try fixture.store.userCount() == 2)
  }

  @Test func phoneSignInSurvivesARestart() async throws {
    let fixture = try Fixture()
    let verificationID = try await fixture.backend.startPhoneVerification(
      phoneNumber: "+819012345678")
    let restarted = fixture.restarted()
    let pending = try #require(try await restarted.pendingPhoneVerification())
    #expect(pending.verificationID == verificationID)
    #expect(pending.phoneNumber == "+819012345678")
    let code = try #require(
      try fixture.store.pendingPhoneVerifications().first {
        $0.verificationID == pending.verificationID
      }?.code)
    let session = try await restarted.signIn(verificationID: pending.verificationID, code: code)
    #expect(session.isNewUser)
    #expect(session.user.phoneNumber == "+819012345678")
    #expect(session.user.providers == ["phone"])
    #expect(try await restarted.pendingPhoneVerification() == nil)

    try await restarted.signOut()
    let again = try await restarted.startPhoneVerification(phoneNumber: "+819012345678")
    let secondCode = try #require(try fixture.store.pendingPhoneVerifications().first?.code)
    let returning = try await restarted.signIn(verificationID: again, code: secondCode)
    #expect(!returning.isNewUser)
    #expect(returning.user.id == session.user.id)
  }

  @Test func wrongPhoneCodeIsRejectedAndTheRightOneStillWorks() async throws {
    let fixture = try Fixture()
    let verificationID = try await fixture.backend.startPhoneVerification(
      phoneNumber: "+15551234567")
    let code = try #require(try fixture.store.pendingPhoneVerifications().first?.code)
    let wrongCode = code == "123456" ? "654321" : "123456"
    let error = await backendError {
      try await fixture.backend.signIn(verificationID: verificationID, code: wrongCode)
    }
    #expect(error?.code == .invalidCredentials)
    #expect(error?.backendCode == "INVALID_CODE")
    #expect(try await fixture.backend.currentUser() == nil)
    _ = try await fixture.backend.signIn(verificationID: verificationID, code: code)
    #expect(try await fixture.backend.currentUser()?.phoneNumber == "+15551234567")
  }

  @Test func expiredPhoneCodeIsRejected() async throws {
    let fixture = try Fixture()
    let verificationID = try await fixture.backend.startPhoneVerification(
      phoneNumber: "+15551234567")
    let code = try #require(try fixture.store.pendingPhoneVerifications().first?.code)
    fixture.clock.advance(by: 301)
    let error = await backendError {
      try await fixture.backend.signIn(verificationID: verificationID, code: code)
    }
    #expect(error?.backendCode == "CODE_EXPIRED")
  }

  @Test(arguments: ["09012345678", "+81", "+81-90-1234-5678", "", "+0123456789"])
  func phoneNumberMustBeE164(number: String) async throws {
    let fixture = try Fixture()
    let error = await backendError {
      try await fixture.backend.startPhoneVerification(phoneNumber: number)
    }
    #expect(error?.code.name == "invalidInput")
    if case .invalidInput(let field, _) = error?.code { #expect(field == "phoneNumber") }
    #expect(try fixture.store.pendingPhoneVerifications().isEmpty)
  }

  @Test func identityProviderSignInWithMatchingNonce() async throws {
    let fixture = try Fixture()
    let rawNonce = Nonce.random()
    let credential = IdentityProviderCredential(
      provider: "apple.com",
      idToken: providerToken(
        subject: "apple-sub-1", nonce: Nonce.sha256Hex(rawNonce), email: "Ann@Example.com"),
      rawNonce: rawNonce)
    let first = try await fixture.backend.signIn(with: credential)
    #expect(first.isNewUser)
    #expect(first.user.providers == ["apple.com"])
    #expect(first.user.email == "ann@example.com")
    let second = try await fixture.backend.signIn(with: credential)
    #expect(!second.isNewUser)
    #expect(second.user.id == first.user.id)
  }

  @Test(arguments: [
    (Optional("wrong-raw-nonce"), true),
    (nil, true),
    (Optional("raw"), false),
  ])
  func identityProviderNonceMismatchIsRejected(rawNonce: String?, tokenHasNonce: Bool)
    async throws
  {
    let fixture = try Fixture()
    let token = providerToken(
      subject: "apple-sub-1", nonce: tokenHasNonce ? Nonce.sha256Hex("the-real-nonce") : nil)
    let error = await backendError {
      try await fixture.backend.signIn(
        with: IdentityProviderCredential(provider: "apple.com", idToken: token, rawNonce: rawNonce)
      )
    }
    #expect(error?.code == .invalidCredentials)
    #expect(error?.backendCode == "MISSING_OR_INVALID_NONCE")
    #expect(error?.message.contains("nonce") == true)
    #expect(try fixture.store.userCount() == 0)
  }

  @Test func identityProviderTokenNeedsSubjectAndMustNotBeExpired() async throws {
    let fixture = try Fixture()
    let noSubject = await backendError {
      try await fixture.backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: providerToken(subject: nil, nonce: nil), rawNonce: nil))
    }
    #expect(noSubject?.backendCode == "INVALID_IDP_RESPONSE")
    let expired = await backendError {
      try await fixture.backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com",
          idToken: providerToken(subject: "s", nonce: nil, expires: fixture.clock.now()),
          rawNonce: nil))
    }
    #expect(expired?.backendCode == "INVALID_IDP_RESPONSE")
    let notJWT = await backendError {
      try await fixture.backend.signIn(
        with: IdentityProviderCredential(provider: "apple.com", idToken: "abc", rawNonce: nil))
    }
    #expect(notJWT?.code == .invalidCredentials)
  }

  @Test func passwordResetIsRecorded() async throws {
    let fixture = try Fixture()
    try await fixture.backend.sendPasswordReset(email: " Ann@Example.com ")
    #expect(try fixture.store.passwordResetRequests().map(\.email) == ["ann@example.com"])
    let error = await backendError { try await fixture.backend.sendPasswordReset(email: "nope") }
    #expect(error?.code == .invalidEmail)
  }

  @Test func deletedAccountCannotSignInAgain() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    try await fixture.backend.deleteAccount()
    #expect(try await fixture.backend.currentUser() == nil)
    #expect(try fixture.store.userCount() == 0)
    let error = await backendError {
      try await fixture.backend.signIn(.email("ann@example.com", password: "secret1"))
    }
    #expect(error?.code == .invalidCredentials)
    let notSignedIn = await backendError { try await fixture.backend.deleteAccount() }
    #expect(notSignedIn?.code == .notSignedIn)
  }

  @Test func authStateChangesYieldTheInitialStateThenEveryChange() async throws {
    let fixture = try Fixture()
    let existing = try await fixture.backend.signUp(.email("ann@example.com", password: "x12345"))
    let stream = fixture.backend.authStateChanges
    var iterator = stream.makeAsyncIterator()
    let initial = await iterator.next()
    #expect(initial == AuthStateChange(.initialState, user: existing.user))
    _ = try await fixture.backend.idToken(forceRefresh: true)
    try await fixture.backend.signOut()
    let session = try await fixture.backend.signIn(.email("ann@example.com", password: "x12345"))
    try fixture.store.revokeRefreshTokens(userID: session.user.id)
    _ = await backendError { try await fixture.backend.idToken(forceRefresh: true) }
    var events: [AuthStateChange.Event] = []
    for _ in 0..<4 { if let change = await iterator.next() { events.append(change.event) } }
    #expect(events == [.tokenRefreshed, .signedOut, .signedIn, .sessionRevoked])
  }

  @Test func signingOutKeepsAPendingPhoneVerification() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signInAnonymously()
    let verificationID = try await fixture.backend.startPhoneVerification(
      phoneNumber: "+15551234567")
    try await fixture.backend.signOut()
    #expect(try await fixture.backend.currentUser() == nil)
    #expect(try await fixture.backend.pendingPhoneVerification()?.verificationID == verificationID)
  }
}
