import BackendEmulator
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// A document stored before a name rule existed (an old fake's `__name__`, a Firestore
/// document another client gave an `objectId`) stays usable on every backend: a write is
/// checked for the names it writes, never for the fields the document already holds, and
/// such a field can be removed (on NCMB, except the user object's own members, which are
/// not document fields there).
@Suite("Documents holding a name the rule now refuses", .timeLimit(.minutes(2)))
struct StoredReservedNameTests {
  /// The old document, in the store's own encoding: a `__name__` and an `objectId` at the
  /// top, a `__x` inside a map.
  static let oldFields =
    #"{"__name__":{"i":"1"},"m":{"m":{"__x":{"i":"2"},"k":{"i":"3"}}},"objectId":{"s":"old"}}"#

  private struct Subject {
    let rig: EmulatorRig
    let backend: any UserBackend
    let store: UserStore
    let userID: String
  }

  private func subject(_ kind: DocumentBackendKind) async throws -> Subject {
    let rig = try EmulatorRig(.inProcess)
    let backend: any UserBackend
    var store = rig.store
    switch kind {
    case .fake:
      store = try makeStore()
      backend = FakeUserBackend(store: store, sessionStore: InMemorySessionStore())
      _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    case .firebase:
      backend = try rig.firebase()
      _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    case .ncmb:
      backend = try rig.ncmb()
      _ = try await backend.signUp(.username("ann", password: "secret1"))
    }
    let userID = try #require(try await backend.currentUser()).id
    _ = try await backend.userDocuments.createDocument(userID: nil, fields: ["keep": .integer(1)])
    // What an older version stored, written straight into the database beside the
    // fields the document has (NCMB's creation marker among them).
    _ = try store.locked { db in
      try db.run(
        "UPDATE documents SET fields = json_patch(fields, ?) WHERE user_id = ?",
        [.text(Self.oldFields), .text(userID)])
    }
    return Subject(rig: rig, backend: backend, store: store, userID: userID)
  }

  private func failure(_ body: () async throws(UserBackendError) -> Void) async
    -> UserBackendError?
  {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "an old document with a refused name can be updated", arguments: DocumentBackendKind.allCases)
  func updateKeepsTheOldField(kind: DocumentBackendKind) async throws {
    let subject = try await subject(kind)
    let docs = subject.backend.userDocuments
    let updated = try await docs.updateDocument(setting: ["x": .integer(2)], removing: [])
    #expect(updated.fields["x"] == .integer(2))
    #expect(updated.fields["__name__"] == .integer(1), "kept, never dropped")
    let stored = try #require(try subject.store.document(userID: subject.userID)).fields
    #expect(stored["__name__"] == .integer(1))
    #expect(stored["objectId"] == .string("old"))
    #expect(stored["m"] == .map(["__x": .integer(2), "k": .integer(3)]))
    #expect(stored["x"] == .integer(2))
    // The name rule still holds for what is written.
    let refused = await failure { () async throws(UserBackendError) in
      _ = try await docs.updateDocument(setting: ["__name__": .integer(5)], removing: [])
    }
    guard case .invalidInput(let field, _)? = refused?.code else {
      Issue.record("\(String(describing: refused))")
      return
    }
    #expect(field == "fields.__name__")
  }

  @Test(
    "a stored field with a refused name can be removed", arguments: DocumentBackendKind.allCases)
  func removeTheOldField(kind: DocumentBackendKind) async throws {
    let subject = try await subject(kind)
    let docs = subject.backend.userDocuments
    let updated = try await docs.updateDocument(setting: [:], removing: ["__name__"])
    #expect(updated.fields["__name__"] == nil)
    #expect(updated.fields["keep"] == .integer(1))
    let stored = try #require(try subject.store.document(userID: subject.userID)).fields
    #expect(stored["__name__"] == nil)
    #expect(stored["keep"] == .integer(1))
    let objectId = await failure { () async throws(UserBackendError) in
      _ = try await docs.updateDocument(setting: [:], removing: ["objectId"])
    }
    if kind == .ncmb {
      // On NCMB objectId is the user object's own member, never a document field.
      guard case .invalidInput(let field, let reason)? = objectId?.code else {
        Issue.record("\(String(describing: objectId))")
        return
      }
      #expect(field == "fields.objectId")
      #expect(reason.contains("NCMB user object"))
    } else {
      #expect(objectId == nil)
      #expect(try subject.store.document(userID: subject.userID)?.fields["objectId"] == nil)
    }
  }

  @Test(
    "refusing a reserved name says which backend reserves it",
    arguments: DocumentBackendKind.allCases)
  func reservedNameMessageNamesTheBackend(kind: DocumentBackendKind) async throws {
    let subject = try await subject(kind)
    let refused = await failure { () async throws(UserBackendError) in
      _ = try await subject.backend.userDocuments.updateDocument(
        setting: ["acl": .integer(1)], removing: [])
    }
    guard case .invalidInput(let field, let reason)? = refused?.code else {
      Issue.record("\(String(describing: refused))")
      return
    }
    #expect(field == "fields.acl")
    #expect(reason.contains("NCMB reserves"), "\(reason)")
  }
}
