import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Schema version 4 keeps the issuer's sign-in facts with a refresh token
/// (`issueRefreshToken(userID:signInFacts:)`, `signInFacts(refreshToken:)`), so the
/// emulator's Firebase refresh tokens are opaque. A version 3 file (the committed fixture
/// `Fixtures/accounts-v3.sqlite`, written by `baas emulator --data` at schema 3) migrates
/// and keeps its accounts; its refresh tokens have no facts.
@Suite("UserStore: sign-in facts of refresh tokens (schema 4)", .timeLimit(.minutes(1)))
struct RefreshTokenSignInFactsStoreTests {
  @Test func factsAreKeptWithTheTokenAndOnlyWithIt() throws {
    let store = try UserStore(path: ":memory:", passwordHashIterations: 1)
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    let facts = #"{"provider":"password","uid":"x"}"#
    let token = try store.issueRefreshToken(userID: user.id, signInFacts: facts)
    #expect(try store.signInFacts(refreshToken: token) == facts)
    #expect(try store.redeemRefreshToken(token, policy: .stable).userID == user.id)
    #expect(try store.signInFacts(refreshToken: token + ".") == nil)
    let plain = try store.issueRefreshToken(userID: user.id)
    #expect(try store.signInFacts(refreshToken: plain) == nil)
    #expect(try store.deleteUser(id: user.id))
    #expect(try store.signInFacts(refreshToken: token) == nil)
  }

  @Test func aVersion3FileFromTheFixtureIsMigratedAndItsTokensHaveNoFacts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("accounts-v3.sqlite")
    let fixture = try #require(
      Bundle.module.url(
        forResource: "accounts-v3", withExtension: "sqlite", subdirectory: "Fixtures"))
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    #expect(try Database(path: path).integer("PRAGMA user_version") == 3)
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try Database(path: path).integer("PRAGMA user_version") == 4)
    #expect(UserStoreSchema.currentVersion == 4)
    let eve = try #require(try store.user(email: "eve@example.com"))
    #expect(eve.id == "2a3fe40a-9f69-43de-91ae-0a91f0034122")
    #expect(try store.verifyPassword("correct-horse-7", userID: eve.id))
    // The refresh token the schema 3 emulator handed out, and its store part.
    let legacy =
      "QHEba0sofGH-mvHtri9E8mzlzBju0BvwxgDWULkCwPw.eyJlbWFpbFZlcmlmaWVkIjpmYWxzZSwidWlkIjoiMmEzZmU0MGEtOWY2OS00M2RlLTkxYWUtMGE5MWYwMDM0MTIyIiwiYXV0aFRpbWUiOjE3OTYxNzM4OTEsInByb3ZpZGVyIjoicGFzc3dvcmQifQ"
    let storePart = String(legacy.split(separator: ".")[0])
    #expect(try store.userID(forRefreshToken: storePart) == eve.id)
    #expect(try store.signInFacts(refreshToken: storePart) == nil)
    #expect(try store.signInFacts(refreshToken: legacy) == nil)
    let fresh = try store.issueRefreshToken(userID: eve.id, signInFacts: "{}")
    #expect(try store.signInFacts(refreshToken: fresh) == "{}")
  }
}
