@testable import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// A photo URL in the fake's database that the input rule refuses (written by another
/// program: credentials in it, a bad port) is dropped from the user, as an over-long one is.
@Suite("Fake: a stored photo URL the input rule refuses is dropped", .timeLimit(.minutes(1)))
struct FakeProfilePhotoRuleTests {
  @Test(
    "sign-in and reload drop it",
    arguments: ["https://user:secret@example.com/p.png", "https://example.com:065/p.png"])
  func dropped(photo: String) async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    try await fixture.backend.signOut()
    _ = try fixture.store.locked { db in
      try db.run("UPDATE users SET photo_url = '\(photo)'")
    }
    let session = try await fixture.backend.signIn(.email("a@example.com", password: "secret1"))
    #expect(session.user.photoURL == nil)
    #expect(try await fixture.backend.reload().photoURL == nil)
  }
}
