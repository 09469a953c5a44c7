import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// The fake's account management: every operation of the port, the shared input checks,
/// recent sign-in by the injected clock, and the out-of-band codes it "sends".
@Suite("FakeUserBackend: account management", .timeLimit(.minutes(1)))
struct FakeUserBackendAccountTests {
  let fixture: Fixture
  var backend: FakeUserBackend { fixture.backend }

  init() throws { fixture = try Fixture() }

  private func code(_ error: () async throws -> Void) async -> UserBackendError? {
    do {
      try await error()
      return nil
    } catch let error as UserBackendError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test func usersCarryTheNewFields() async throws {
    let signedUp = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    #expect(signedUp.user.emailVerified == false)
    #expect(signedUp.user.createdAt == fixture.clock.now())
    #expect(signedUp.user.lastSignInAt == fixture.clock.now())
    fixture.clock.advance(by: 60)
    let signedIn = try await backend.signIn(.email("ann@example.com", password: "secret1"))
    #expect(signedIn.user.lastSignInAt == fixture.clock.now())
    #expect(signedIn.user.createdAt == signedUp.user.createdAt)
    let reloaded = try await backend.reload()
    #expect(reloaded == signedIn.user)
  }

  @Test func profileIsSetKeptAndRemovedAndReloaded() async throws {
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    var user = try await backend.updateProfile(
      displayName: "Ann", photoURL: "https://example.com/ann.png")
    #expect(user.displayName == "Ann")
    #expect(user.photoURL == URL(string: "https://example.com/ann.png"))
    user = try await backend.updateProfile(displayName: nil, photoURL: "")
    #expect(user.displayName == "Ann" && user.photoURL == nil)
    #expect(try await backend.currentUser() == user)
    #expect(try await backend.reload() == user)
  }

  @Test(
    "bad profile input is refused before the session is read",
    arguments: [
      ("ftp://example.com/a.png", "photoURL"), ("/relative.png", "photoURL"),
      ("https://", "photoURL"), ("https://example.com/a b", "photoURL"),
    ])
  func badPhotoURL(url: String, field: String) async throws {
    // Not signed in: the input check comes first.
    let error = await code { _ = try await backend.updateProfile(displayName: nil, photoURL: url) }
    #expect(error?.code == .invalidInput(field: field, reason: error?.code.reason ?? ""))
  }

  @Test func badDisplayNamesAreRefused() async throws {
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    for name in ["   ", "a\u{0}b", String(repeating: "x", count: 257)] {
      let error = await code {
        _ = try await backend.updateProfile(displayName: name, photoURL: nil)
      }
      #expect(error?.code.field == "displayName")
    }
    let error = await code { _ = try await fixture.restarted().signOut() }
    #expect(error == nil)
    let notSignedIn = await code {
      _ = try await backend.updateProfile(displayName: "A", photoURL: nil)
    }
    #expect(notSignedIn?.code == .notSignedIn)
  }

  @Test func aChangedPasswordSignsInAndTheOldOneFails() async throws {
    let first = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    try await backend.updatePassword("changed1")
    let stored = try #require(try await fixture.sessions.load().session)
    #expect(stored.refreshToken != first.refreshToken)
    #expect(stored.user.id == first.user.id)
    // The new session works (the old refresh token was revoked).
    _ = try await backend.idToken(forceRefresh: true)
    try await backend.signOut()
    let wrong = await code {
      _ = try await backend.signIn(.email("ann@example.com", password: "secret1"))
    }
    #expect(wrong?.code == .invalidCredentials)
    _ = try await backend.signIn(.email("ann@example.com", password: "changed1"))
    let weak = await code { try await backend.updatePassword("123") }
    #expect(weak?.code == .weakPassword(minimumLength: 6))
  }

  @Test func sensitiveChangesNeedARecentSignInUntilReauthentication() async throws {
    let signedUp = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    fixture.clock.advance(by: backend.recentLoginWindow + 1)
    for change in [
      { try await backend.updatePassword("changed1") },
      { _ = try await backend.updateEmail("new@example.com") },
      { try await backend.deleteAccount() },
    ] as [() async throws -> Void] {
      let error = await code(change)
      #expect(error?.code == .requiresRecentLogin)
      #expect(error?.backendCode == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }
    // A refresh continues the old sign-in: still too old.
    _ = try await backend.idToken(forceRefresh: true)
    let stillOld = await code { try await backend.updatePassword("changed1") }
    #expect(stillOld?.code == .requiresRecentLogin)
    // Nothing changed.
    #expect(try fixture.store.user(id: signedUp.user.id)?.email == "ann@example.com")

    let again = try await backend.reauthenticate(.email("ANN@example.com", password: "secret1"))
    #expect(again.user.id == signedUp.user.id && !again.isNewUser)
    try await backend.updatePassword("changed1")
    let user = try await backend.updateEmail("new@example.com")
    #expect(user.email == "new@example.com")
    try await backend.deleteAccount()
    #expect(try await backend.currentUser() == nil)
  }

  @Test func theWindowIsAConstructorParameter() async throws {
    let backend = FakeUserBackend(
      store: fixture.store, sessionStore: InMemorySessionStore(), recentLoginWindow: 10)
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    fixture.clock.advance(by: 10)
    try await backend.updatePassword("changed1")  // exactly the window: still recent
    fixture.clock.advance(by: 11)
    let error = await code { try await backend.updatePassword("changed2") }
    #expect(error?.code == .requiresRecentLogin)
  }

  @Test func reauthenticationChecksTheCredentialAndTheAccount() async throws {
    _ = try await backend.signUp(.email("bob@example.com", password: "secret1"))
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    let mismatch = await code {
      _ = try await backend.reauthenticate(.email("bob@example.com", password: "secret1"))
    }
    #expect(mismatch?.code == .userMismatch && mismatch?.backendCode == "USER_MISMATCH")
    let wrong = await code {
      _ = try await backend.reauthenticate(.email("ann@example.com", password: "wrong12"))
    }
    #expect(wrong?.code == .invalidCredentials)
    #expect(try await backend.currentUser()?.email == "ann@example.com")
    try await backend.signOut()
    let nobody = await code {
      _ = try await backend.reauthenticate(.email("ann@example.com", password: "secret1"))
    }
    #expect(nobody?.code == .notSignedIn)
  }

  @Test func anEmailChangeIsVisibleAfterReloadAndTakenEmailsAreRefused() async throws {
    _ = try await backend.signUp(.email("bob@example.com", password: "secret1"))
    let ann = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    let taken = await code { _ = try await backend.updateEmail(" BOB@example.com") }
    #expect(taken?.code == .accountAlreadyExists && taken?.backendCode == "EMAIL_EXISTS")
    let malformed = await code { _ = try await backend.updateEmail("not-an-email") }
    #expect(malformed?.code == .invalidEmail)
    _ = try await backend.updateEmail("Ann.New@Example.com")
    let reloaded = try await backend.reload()
    #expect(reloaded.id == ann.user.id && reloaded.email == "ann.new@example.com")
    #expect(reloaded.emailVerified == false)
    try await backend.signOut()
    _ = try await backend.signIn(.email("ann.new@example.com", password: "secret1"))
  }

  @Test func emailVerificationCompletesWithTheRecordedCode() async throws {
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    try await backend.sendEmailVerification()
    let codes = try backend.outOfBandCodes(email: "ann@example.com")
    #expect(codes.map(\.requestType) == [.verifyEmail])
    let code = try #require(codes.first).code
    try await backend.applyEmailVerification(code: code)
    #expect(try await backend.currentUser()?.emailVerified == true)
    #expect(try await backend.reload().emailVerified == true)
    let reused = await self.code { try await backend.applyEmailVerification(code: code) }
    #expect(reused?.code.field == "code" && reused?.backendCode == "INVALID_OOB_CODE")
    let empty = await self.code { try await backend.applyEmailVerification(code: "  ") }
    #expect(empty?.code.field == "code")
    // A guest has no email to verify.
    _ = try await backend.signInAnonymously()
    let noEmail = await self.code { try await backend.sendEmailVerification() }
    #expect(noEmail?.code.field == "email")
  }

  @Test func aResetCompletedWithTheRecordedCodeLetsTheNewPasswordSignIn() async throws {
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    try await backend.signOut()
    try await backend.sendPasswordReset(email: "ANN@example.com")
    try await backend.sendPasswordReset(email: "nobody@example.com")
    #expect(try backend.outOfBandCodes(email: "nobody@example.com").isEmpty)
    let code = try #require(try backend.outOfBandCodes(email: "ann@example.com").first)
    #expect(code.requestType == .passwordReset)
    let weak = await self.code {
      try await backend.confirmPasswordReset(code: code.code, newPassword: "1")
    }
    #expect(weak?.code == .weakPassword(minimumLength: 6))
    try await backend.confirmPasswordReset(code: code.code, newPassword: "changed1")
    _ = try await backend.signIn(.email("ann@example.com", password: "changed1"))
    try await backend.signOut()
    let old = await self.code {
      _ = try await backend.signIn(.email("ann@example.com", password: "secret1"))
    }
    #expect(old?.code == .invalidCredentials)
    let reused = await self.code {
      try await backend.confirmPasswordReset(code: code.code, newPassword: "changed2")
    }
    #expect(reused?.backendCode == "INVALID_OOB_CODE")
  }

  @Test func anExpiredResetCodeIsRefused() async throws {
    _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    try await backend.sendPasswordReset(email: "ann@example.com")
    let code = try #require(try backend.outOfBandCodes().first).code
    fixture.clock.advance(by: UserStore.outOfBandCodeLifetime)
    let expired = await self.code {
      try await backend.confirmPasswordReset(code: code, newPassword: "changed1")
    }
    #expect(expired?.code.field == "code" && expired?.backendCode == "EXPIRED_OOB_CODE")
  }

  @Test func aGuestUpgradedWithAPasswordKeepsItsIDAndSignsInByEmail() async throws {
    _ = try await backend.signUp(.email("taken@example.com", password: "secret1"))
    let guest = try await backend.signInAnonymously()
    let taken = await code {
      _ = try await backend.linkPassword(.email("taken@example.com", password: "secret1"))
    }
    #expect(taken?.code == .accountAlreadyExists)
    let weak = await code {
      _ = try await backend.linkPassword(.email("guest@example.com", password: "1"))
    }
    #expect(weak?.code == .weakPassword(minimumLength: 6))
    let linked = try await backend.linkPassword(.email("Guest@Example.com", password: "secret1"))
    #expect(linked.user.id == guest.user.id)
    #expect(!linked.user.isAnonymous && !linked.isNewUser)
    #expect(linked.user.email == "guest@example.com")
    #expect(linked.user.providers == ["password"])
    let again = await code {
      _ = try await backend.linkPassword(.email("g2@example.com", password: "secret1"))
    }
    #expect(again?.code.field == "credential")
    try await backend.signOut()
    let signedIn = try await backend.signIn(.email("guest@example.com", password: "secret1"))
    #expect(signedIn.user.id == guest.user.id)
  }

  @Test func reloadOfADeletedAccountEndsTheSession() async throws {
    let ann = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    #expect(try fixture.store.deleteUser(id: ann.user.id))
    let error = await code { _ = try await backend.reload() }
    #expect(error?.code == .sessionExpired)
    #expect(try await backend.currentUser() == nil)
  }

  @Test func everyAccountOperationIsDeclared() {
    for capability: Capability in [
      .userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .emailVerification,
      .passwordResetCompletion, .reauthentication, .anonymousUpgrade,
    ] {
      #expect(backend.capabilities.contains(capability))
    }
  }
}

extension UserBackendError.Code {
  /// The field of `.invalidInput`, else `nil`.
  var field: String? {
    if case .invalidInput(let field, _) = self { return field }
    return nil
  }
  /// The reason of `.invalidInput`, else `nil`.
  var reason: String? {
    if case .invalidInput(_, let reason) = self { return reason }
    return nil
  }
}
