import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// `photoURL` is an ordinary custom field of an NCMB user: any client may store any text,
/// such as a URL holding a user name and password. A value the input rule
/// (``CredentialValidation/validatePhotoURL(_:)``) refuses is dropped (`nil`) on every
/// path that reads the user, as an over-long one is; it is never kept or printed.
@Suite("NCMB: a server photoURL the input rule refuses is dropped", .timeLimit(.minutes(1)))
struct NCMBProfilePhotoRuleTests {
  static let values = [
    "https://user:secret@example.com/p.png", "https://user@example.com/p.png",
    "https://example.com:065/p.png", "https://example.com:/p.png", "ftp://example.com/p.png",
  ]

  @Test("a reload answer's photoURL is dropped", arguments: values)
  func reload(photo: String) async throws {
    let store = Fixture.signedInStore()
    let body = #"{"objectId":"epaKcaYZqsREdSMY","mailAddressConfirm":true,"photoURL":"\#(photo)"}"#
    let backend = try Fixture.backend(StubTransport(status: 200, json: body), store: store)
    let user = try await backend.reload()
    #expect(user.photoURL == nil)
    #expect(user.emailVerified == true)
    #expect(try await store.load().session?.user.photoURL == nil)
  }

  @Test("a sign-in answer's photoURL is dropped", arguments: values)
  func signIn(photo: String) async throws {
    let store = InMemorySessionStore()
    let body = NCMBProfileAnswerLimitTests.answer(#""photoURL":"\#(photo)""#)
    let backend = try Fixture.backend(StubTransport(status: 201, json: body), store: store)
    let session = try await backend.signIn(.username("alice", password: "password-1"))
    #expect(session.user.photoURL == nil)
    #expect(try await store.load().session?.user.photoURL == nil)
  }

  @Test("a usable photoURL is kept")
  func kept() async throws {
    let store = Fixture.signedInStore()
    let body = #"{"objectId":"epaKcaYZqsREdSMY","photoURL":"https://example.com:8443/p.png"}"#
    let backend = try Fixture.backend(StubTransport(status: 200, json: body), store: store)
    #expect(try await backend.reload().photoURL?.absoluteString == "https://example.com:8443/p.png")
  }

  @Test("a stored session holding such a photoURL drops it when the session is read")
  func storedSession() async throws {
    var session = try #require(try await Fixture.signedInStore().load().session)
    session.user.photoURL = URL(string: "https://user:secret@example.com/p.png")
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let backend = try Fixture.backend(
      StubTransport(status: 200, json: #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
      store: store)
    _ = try await backend.updateProfile(displayName: "Ada", photoURL: nil)
    #expect(try await store.load().session?.user.photoURL == nil)
  }
}
