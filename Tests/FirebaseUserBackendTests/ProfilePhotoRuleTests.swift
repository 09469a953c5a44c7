import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A `photoUrl` in a lookup answer that the input rule
/// (``CredentialValidation/validatePhotoURL(_:)``) refuses (credentials in it, a port
/// with a leading zero or empty) is dropped (`nil`), as an over-long one is.
@Suite("Firebase: a server photoUrl the input rule refuses is dropped", .timeLimit(.minutes(1)))
struct ProfilePhotoRuleTests {
  @Test(
    "a reload answer's photoUrl is dropped",
    arguments: [
      "https://user:secret@example.com/p.png", "https://user@example.com/p.png",
      "https://example.com:065/p.png", "https://example.com:/p.png", "ftp://example.com/p.png",
    ])
  func reload(photo: String) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let body = """
      {"users":[{"localId":"uid-1","email":"alice@example.com","emailVerified":true,\
      "photoUrl":"\(photo)"}]}
      """
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    let user = try await backend.reload()
    #expect(user.photoURL == nil)
    #expect(user.emailVerified == true)
    #expect(try await store.load().session?.user.photoURL == nil)
  }
}
