import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// Answers about the signed-in user that name another user (`objectId`) are
/// `.malformedResponse`: nothing is stored, the session stays.
@Suite("NCMB: answers for another user", .timeLimit(.minutes(1)))
struct NCMBForeignAnswerTests {
  private static func expectMalformed(_ code: UserBackendError.Code?) {
    guard case .malformedResponse = code else {
      Issue.record("expected malformedResponse, got \(String(describing: code))")
      return
    }
  }

  /// The operations that send `PUT users/{objectId}` for the signed-in user.
  enum Update: String, CaseIterable, CustomTestStringConvertible {
    case profile, password, email, link
    var testDescription: String { rawValue }
  }

  @Test("PUT users answered with another objectId and a session token", arguments: Update.allCases)
  func update(_ operation: Update) async throws {
    let server = StubTransport(
      status: 200,
      json: #"{"updateDate":"2026-01-01T00:00:05.000Z","objectId":"someoneElse000","#
        + #""sessionToken":"foreign-session-token"}"#)
    var session = try #require(try await Fixture.signedInStore().load().session)
    if operation == .link {
      session.user = User(id: Fixture.userID, providers: ["anonymous"], isAnonymous: true)
    }
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let before = try await store.load()
    let backend = try Fixture.backend(server, store: store)

    let outcome = await documentOutcome { () async throws(UserBackendError) in
      switch operation {
      case .profile: _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
      case .password: try await backend.updatePassword("new-password-1")
      case .email: _ = try await backend.updateEmail("bob@example.com")
      case .link: _ = try await backend.linkPassword(.username("bob", password: "new-password-1"))
      }
    }
    Self.expectMalformed(outcome.errorCode)
    #expect(server.requests.count == 1)
    #expect(try await store.load() == before)
  }

  @Test("A user-document read answered with another user's object")
  func documentRead() async throws {
    let server = NCMBObjectServer()
    server.set(Fixture.userID, "objectId", json: #""someoneElse000""#)
    server.set(
      Fixture.userID, "documentCreateDate",
      json: #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#)
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try server.backend(store: store)

    let outcome = await documentOutcome { () async throws(UserBackendError) in
      try await backend.userDocuments.document(userID: nil)
    }
    Self.expectMalformed(outcome.errorCode)
    #expect(try await store.load() == before)
  }
}
