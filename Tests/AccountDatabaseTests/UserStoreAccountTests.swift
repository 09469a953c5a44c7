import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Account management in the store: profile, email, verification, out-of-band codes,
/// linking a password to a guest, sign-in stamps, and the migration to schema version 2.
@Suite("UserStore: account management", .timeLimit(.minutes(1)))
struct UserStoreAccountTests {
  @Test func profileFieldsAreSetKeptAndRemoved() throws {
    let store = try makeStore()
    let user = try store.createUser(NewUser(email: "ann@example.com", displayName: "Ann"))
    var updated = try store.updateProfile(
      userID: user.id, displayName: .keep, photoURL: .set("https://example.com/a.png"))
    #expect(updated.displayName == "Ann")
    #expect(updated.photoURL == "https://example.com/a.png")
    #expect(updated.user.photoURL == URL(string: "https://example.com/a.png"))
    updated = try store.updateProfile(userID: user.id, displayName: .remove, photoURL: .keep)
    #expect(updated.displayName == nil)
    #expect(updated.photoURL == "https://example.com/a.png")
    updated = try store.updateProfile(userID: user.id, displayName: .set("A"), photoURL: .remove)
    #expect(updated == (try store.user(id: user.id)))
    #expect(updated.displayName == "A" && updated.photoURL == nil)
    #expect(throws: UserStoreError.userNotFound) {
      try store.updateProfile(userID: "missing", displayName: .set("x"), photoURL: .keep)
    }
  }

  @Test func emailChangeIsCanonicalUniqueAndClearsVerification() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    _ = try store.createUser(NewUser(email: "bob@example.com"))
    try store.setEmailVerified(userID: ann.id, true)
    #expect(try store.user(id: ann.id)?.emailVerified == true)

    #expect(throws: UserStoreError.duplicate(field: "email")) {
      try store.updateEmail(userID: ann.id, to: " BOB@example.com")
    }
    #expect(throws: UserBackendError.self) { try store.updateEmail(userID: ann.id, to: "no at") }
    // A refused change wrote nothing.
    #expect(try store.user(id: ann.id)?.email == "ann@example.com")
    #expect(try store.user(id: ann.id)?.emailVerified == true)

    let changed = try store.updateEmail(userID: ann.id, to: "  Ann.New@EXAMPLE.com ")
    #expect(changed.email == "ann.new@example.com")
    #expect(changed.emailVerified == false)
    #expect(try store.user(email: "ann@example.com") == nil)
    #expect(try store.verifyPassword("secret1", userID: ann.id))
  }

  @Test func aPasswordResetCodeIsSingleUseAndSetsThePassword() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    let refresh = try store.issueRefreshToken(userID: ann.id)
    let code = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
    #expect(code.email == "ann@example.com" && code.requestType == .passwordReset)
    #expect(!code.description.contains(code.code))
    #expect(try store.outOfBandCodes(email: "ANN@example.com") == [code])
    #expect(try store.outOfBandCode(code.code, of: .passwordReset) == code)
    // A reset code is no verification code.
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.applyEmailVerification(code: code.code)
    }

    try store.completePasswordReset(code: code.code, newPassword: "changed1")
    #expect(try store.verifyPassword("changed1", userID: ann.id))
    #expect(try !store.verifyPassword("secret1", userID: ann.id))
    #expect(throws: UserStoreError.invalidRefreshToken) { try store.rotateRefreshToken(refresh) }
    #expect(try store.outOfBandCodes().isEmpty)
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.completePasswordReset(code: code.code, newPassword: "again123")
    }
    #expect(try store.verifyPassword("changed1", userID: ann.id))
  }

  @Test func anExpiredCodeIsRefusedAndChangesNothing() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let ann = try store.createUser(NewUser(email: "ann@example.com", password: "secret1"))
    let reset = try store.issueOutOfBandCode(.passwordReset, userID: ann.id)
    let verify = try store.issueOutOfBandCode(.verifyEmail, userID: ann.id)
    clock.advance(by: UserStore.outOfBandCodeLifetime)
    #expect(throws: UserStoreError.outOfBandCodeExpired) {
      try store.completePasswordReset(code: reset.code, newPassword: "changed1")
    }
    #expect(throws: UserStoreError.outOfBandCodeExpired) {
      try store.applyEmailVerification(code: verify.code)
    }
    #expect(try store.verifyPassword("secret1", userID: ann.id))
    #expect(try store.user(id: ann.id)?.emailVerified == false)
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.completePasswordReset(code: "unknown", newPassword: "changed1")
    }
  }

  @Test func emailVerificationMarksTheAddressUnlessItChanged() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com"))
    let first = try store.issueOutOfBandCode(.verifyEmail, userID: ann.id)
    try store.applyEmailVerification(code: first.code)
    #expect(try store.user(id: ann.id)?.emailVerified == true)
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.applyEmailVerification(code: first.code)
    }

    let stale = try store.issueOutOfBandCode(.verifyEmail, userID: ann.id)
    try store.updateEmail(userID: ann.id, to: "other@example.com")
    #expect(throws: UserStoreError.invalidOutOfBandCode) {
      try store.applyEmailVerification(code: stale.code)
    }
    #expect(try store.user(id: ann.id)?.emailVerified == false)

    let guest = try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    #expect(throws: UserBackendError.self) {
      try store.issueOutOfBandCode(.verifyEmail, userID: guest.id)
    }
    try store.deleteOutOfBandCodes()
    #expect(try store.outOfBandCodes().isEmpty)
  }

  @Test func deletingAnAccountDropsItsCodes() throws {
    let store = try makeStore()
    let ann = try store.createUser(NewUser(email: "ann@example.com"))
    _ = try store.issueOutOfBandCode(.verifyEmail, userID: ann.id)
    #expect(try store.deleteUser(id: ann.id))
    #expect(try store.outOfBandCodes().isEmpty)
  }

  @Test func aGuestIsLinkedToAPasswordWithTheSameID() throws {
    let store = try makeStore()
    let guest = try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    let taken = try store.createUser(NewUser(email: "taken@example.com", password: "secret1"))
    #expect(throws: UserStoreError.duplicate(field: "email")) {
      try store.linkPassword(userID: guest.id, email: "TAKEN@example.com", password: "secret1")
    }
    #expect(try store.user(id: guest.id)?.isAnonymous == true)
    #expect(throws: UserStoreError.notAnonymous) {
      try store.linkPassword(userID: taken.id, email: "x@example.com", password: "secret1")
    }
    #expect(throws: UserStoreError.userNotFound) {
      try store.linkPassword(userID: "missing", email: "x@example.com", password: "secret1")
    }

    let linked = try store.linkPassword(
      userID: guest.id, email: " Guest@Example.com", password: "secret1")
    #expect(linked.id == guest.id)
    #expect(linked.email == "guest@example.com")
    #expect(linked.providers == ["password"] && !linked.isAnonymous)
    #expect(try store.user(email: "guest@example.com")?.id == guest.id)
    #expect(try store.verifyPassword("secret1", userID: guest.id))

    let named = try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    let withName = try store.linkPassword(
      userID: named.id, email: nil, username: " grace ", password: "secret1")
    #expect(withName.username == "grace" && withName.email == nil)
  }

  @Test func everySignInIsStampedAndRotationsKeepTheAuthenticationTime() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let ann = try store.createUser(NewUser(email: "ann@example.com"))
    #expect(ann.lastSignInAt == nil)
    let signedIn = clock.now()
    let refresh = try store.issueRefreshToken(userID: ann.id)
    #expect(try store.user(id: ann.id)?.lastSignInAt == signedIn)
    #expect(try store.user(id: ann.id)?.user.lastSignInAt == signedIn)
    #expect(try store.authenticationTime(refreshToken: refresh) == signedIn)

    clock.advance(by: 600)
    let rotated = try store.rotateRefreshToken(refresh).refreshToken
    #expect(try store.authenticationTime(refreshToken: rotated) == signedIn)
    #expect(try store.user(id: ann.id)?.lastSignInAt == signedIn)
    _ = try store.createSessionToken(userID: ann.id)
    #expect(try store.user(id: ann.id)?.lastSignInAt == clock.now())
    #expect(try store.authenticationTime(refreshToken: "unknown") == nil)
  }

  // MARK: - Migration to version 2

  @Test func aVersion1FileIsMigratedToTheCurrentVersionAndKeepsItsAccountsAndTokens() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("v1.sqlite")
    do {
      let database = try Database(path: path)
      try database.execute(
        script: UserStoreSchema.tables
          + """
          INSERT INTO users (id, email, display_name, provider, created_at, updated_at, valid_since)
            VALUES ('u1', 'ada@example.com', 'Ada', 'password', 1000, 1000, 1000);
          INSERT INTO refresh_tokens (token_hash, user_id, family, created_at)
            VALUES (x'00', 'u1', 'f1', 1000);
          PRAGMA application_id=\(UserStoreSchema.applicationID); PRAGMA user_version=1;
          """)
    }
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    let ada = try #require(try store.user(id: "u1"))
    #expect(ada.email == "ada@example.com" && ada.displayName == "Ada")
    #expect(!ada.emailVerified && ada.photoURL == nil && ada.lastSignInAt == nil)
    #expect(ada.user.createdAt == Date(timeIntervalSince1970: 1000))
    #expect(
      try store.database.withLock { try $0.integer("PRAGMA user_version") }
        == Int64(UserStoreSchema.currentVersion))
    #expect(
      try store.database.withLock { try $0.integer("SELECT COUNT(*) FROM refresh_tokens") } == 1)
    // The new columns and table work on the migrated file.
    let code = try store.issueOutOfBandCode(.verifyEmail, userID: "u1")
    try store.applyEmailVerification(code: code.code)
    #expect(try store.user(id: "u1")?.emailVerified == true)
  }

  @Test func theVersion0FixtureMigratesToVersion2() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("accounts.sqlite")
    let fixture = try #require(
      Bundle.module.url(
        forResource: "accounts-v0", withExtension: "sqlite", subdirectory: "Fixtures"))
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    let ada = try #require(try store.user(email: "ada@example.com"))
    #expect(!ada.emailVerified && ada.lastSignInAt == nil && ada.photoURL == nil)
    let updated = try store.updateProfile(
      userID: ada.id, displayName: .keep, photoURL: .set("https://example.com/ada.png"))
    #expect(updated.displayName == "Ada")
    #expect(try store.outOfBandCodes().isEmpty)
  }
}
