@testable import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// A display name or photo URL in the fake's database over the client's input limit
/// (written by another program) is dropped from the user, never a refused sign-in.
@Suite("Fake: over-long stored profile fields are dropped", .timeLimit(.minutes(1)))
struct FakeProfileLimitTests {
  static let longName = String(
    repeating: "n", count: CredentialValidation.maximumDisplayNameLength + 1)
  static let longPhoto =
    "https://example.com/"
    + String(repeating: "p", count: CredentialValidation.maximumPhotoURLLength)

  @Test("sign-in, reload and refresh drop them")
  func dropped() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    try await fixture.backend.signOut()
    _ = try fixture.store.locked { db in
      try db.run(
        "UPDATE users SET display_name = '\(Self.longName)', photo_url = '\(Self.longPhoto)'")
    }
    let session = try await fixture.backend.signIn(.email("a@example.com", password: "secret1"))
    #expect(session.user.displayName == nil)
    #expect(session.user.photoURL == nil)
    #expect(session.user.email == "a@example.com")
    let reloaded = try await fixture.backend.reload()
    #expect(reloaded.displayName == nil && reloaded.photoURL == nil)
    _ = try await fixture.backend.idToken(forceRefresh: true)
    #expect(try await fixture.backend.currentUser()?.displayName == nil)
  }
}
