@testable import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// The fake's document store: the owner rule, signed-out callers, the source app's flow.
@Suite(.timeLimit(.minutes(1)))
struct FakeUserDocumentStoreTests {
  private func code(_ body: () async throws(UserBackendError) -> Void) async -> String? {
    do {
      try await body()
      return nil
    } catch {
      return error.code.name
    }
  }

  @Test func theCapabilityIsStatedAndTheStoreIsTheFakes() throws {
    let fixture = try Fixture()
    #expect(fixture.backend.capabilities.contains(.userDocuments))
    #expect(fixture.backend.userDocuments is FakeUserDocumentStore)
  }

  @Test func neitherOfTwoUsersReachesTheOthersDocument() async throws {
    let fixture = try Fixture()
    let bobBackend = FakeUserBackend(store: fixture.store, sessionStore: InMemorySessionStore())
    let ann = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let bob = try await bobBackend.signUp(.email("bob@example.com", password: "secret1"))
    let annDocs = fixture.backend.userDocuments
    let bobDocs = bobBackend.userDocuments
    _ = try await annDocs.ensureDocument(for: ann.user)
    _ = try await bobDocs.ensureDocument(for: bob.user)

    for (docs, other) in [(annDocs, bob.user.id), (bobDocs, ann.user.id)] {
      #expect(
        await code { () async throws(UserBackendError) in
          _ = try await docs.document(userID: other)
        } == "permissionDenied")
      #expect(
        await code { () async throws(UserBackendError) in
          _ = try await docs.createDocument(userID: other, fields: ["x": .integer(1)])
        } == "permissionDenied")
      #expect(
        await code { () async throws(UserBackendError) in
          _ = try await docs.updateDocument(
            userID: other, setting: ["x": .integer(1)], removing: [])
        } == "permissionDenied")
      #expect(
        await code { () async throws(UserBackendError) in
          try await docs.deleteDocument(userID: other)
        } == "permissionDenied")
    }
    // Nothing of the other's changed; each still reads their own, also by explicit ID.
    let annDoc = try #require(try await annDocs.document(userID: ann.user.id))
    #expect(annDoc.fields["uid"] == .string(ann.user.id))
    #expect(annDoc.fields["x"] == nil)
    let bobDoc = try #require(try await bobDocs.document())
    #expect(bobDoc.fields["email"] == .string("bob@example.com"))
    #expect(bobDoc.fields["x"] == nil)
  }

  @Test func signedOutIsNotSignedIn() async throws {
    let fixture = try Fixture()
    let docs = fixture.backend.userDocuments
    #expect(
      await code { () async throws(UserBackendError) in
        _ = try await docs.document(userID: nil)
      } == "notSignedIn")
    #expect(
      await code { () async throws(UserBackendError) in
        _ = try await docs.createDocument(userID: nil, fields: [:])
      } == "notSignedIn")
    #expect(
      await code { () async throws(UserBackendError) in
        _ = try await docs.updateDocument(setting: ["a": .null])
      } == "notSignedIn")
    #expect(
      await code { () async throws(UserBackendError) in
        try await docs.deleteDocument(userID: "someone")
      } == "notSignedIn")
  }

  @Test func theSourceAppsFlowCreatesOnceAndKeepsTheDocument() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let docs = fixture.backend.userDocuments
    let first = try await docs.ensureDocument(for: session.user)
    #expect(first.created)
    #expect(first.document.fields["display_name"] == .string("anonymous"))
    guard case .timestamp(let created) = first.document.fields["create_date"] else {
      Issue.record("create_date is not a timestamp")
      return
    }
    #expect(created == first.document.createTime)
    fixture.clock.advance(by: 60)
    let second = try await docs.ensureDocument(for: session.user, displayName: "changed")
    #expect(!second.created)
    #expect(second.document == first.document)
  }

  @Test func concurrentEnsureFromTwoSessionsCreatesExactlyOne() async throws {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let other = FakeUserBackend(store: fixture.store, sessionStore: InMemorySessionStore())
    _ = try await other.signIn(.email("ann@example.com", password: "secret1"))
    async let one = fixture.backend.userDocuments.ensureDocument(for: session.user)
    async let two = other.userDocuments.ensureDocument(for: session.user)
    let results = try await [one, two]
    #expect(results.filter(\.created).count == 1)
    #expect(results[0].document == results[1].document)
  }

  @Test func badFieldsAreRefusedBeforeTheStoreAndAccountDeletionRemovesTheDocument()
    async throws
  {
    let fixture = try Fixture()
    let session = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
    let docs = fixture.backend.userDocuments
    #expect(
      await code { () async throws(UserBackendError) in
        _ = try await docs.updateDocument(setting: ["": .null])
      } == "invalidInput")
    #expect(try fixture.store.document(userID: session.user.id) == nil)
    _ = try await docs.updateDocument(setting: ["a": .integer(1)], removing: [])
    try await fixture.backend.deleteAccount()
    #expect(try fixture.store.document(userID: session.user.id) == nil)
  }
}
