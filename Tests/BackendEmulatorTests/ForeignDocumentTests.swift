import AccountDatabase
import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// A document another client wrote before this package's first sign-in (on NCMB: custom
/// fields an NCMB SDK app stored on the user object) is the user's document on every
/// backend: read as it is, left alone by a create (`ensureDocument` answers
/// `created: false`), kept existing by updates, removed by a delete.
@Suite("A document another client wrote", .timeLimit(.minutes(2)))
struct ForeignDocumentTests {
  /// What the other app stored.
  static let foreign: [String: DocumentValue] = [
    "display_name": .string("Ada Lovelace"),
    "create_date": .timestamp(Date(timeIntervalSince1970: 1_577_836_800)),  // 2020-01-01
    "score": .integer(99),
  ]

  /// Signs up on `name` and stores ``foreign`` as the user's document behind the adapter.
  static func signedUpWithForeignDocument(_ name: String, _ rig: EmulatorRig) async throws -> (
    any UserBackend, User
  ) {
    let backend = try makeBackend(name, rig, InMemorySessionStore())
    let user = try await backend.signUp(.email("ada-\(name)@example.com", password: "secret1"))
      .user
    _ = try rig.store.updateDocument(userID: user.id, setting: foreign, removing: [])
    return (backend, user)
  }

  @Test("is read and ensureDocument leaves it unchanged", arguments: ["fake", "firebase", "ncmb"])
  func ensureLeavesIt(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let (backend, user) = try await Self.signedUpWithForeignDocument(name, rig)
    let docs = backend.userDocuments
    let read = try await docs.document()
    #expect(read?.fields == Self.foreign)
    rig.clock.advance(by: 60)
    let ensured = try await docs.ensureDocument(for: user)
    #expect(ensured.created == false)
    #expect(ensured.document.fields == Self.foreign)
    #expect(ensured.document.createTime == read?.createTime)
    #expect(try await docs.document()?.fields == Self.foreign)
    #expect(try rig.store.document(userID: user.id)?.fields == Self.foreign)
  }

  @Test(
    "updates keep it existing with its createTime; delete removes it",
    arguments: ["fake", "firebase", "ncmb"])
  func updateAndDelete(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let (backend, user) = try await Self.signedUpWithForeignDocument(name, rig)
    let docs = backend.userDocuments
    let created = try await docs.document()?.createTime
    rig.clock.advance(by: 60)
    let updated = try await docs.updateDocument(setting: ["level": .integer(2)])
    #expect(updated.fields["score"] == .integer(99))
    #expect(updated.fields["level"] == .integer(2))
    #expect(updated.createTime == created)
    let emptied = try await docs.updateDocument(
      setting: [:], removing: Set(Self.foreign.keys).union(["level"]))
    #expect(emptied.fields.isEmpty)
    #expect(emptied.createTime == created)
    #expect(try await docs.document() != nil)
    try await docs.deleteDocument(userID: nil)
    #expect(try await docs.document() == nil)
    let fresh = try await docs.ensureDocument(for: user)
    #expect(fresh.created)
    #expect(fresh.document.fields["display_name"] == .string("anonymous"))
  }

  /// NCMB: the ACL of an object another client filled is that client's choice; a create on
  /// an object without fields makes it owner-only (documents are owner-only).
  @Test("NCMB: the other client's ACL is kept; a new document is owner-only")
  func ncmbACL() async throws {
    let rig = try EmulatorRig(.inProcess)
    let (backend, user) = try await Self.signedUpWithForeignDocument("ncmb", rig)
    let publicRead = #"{"*":{"read":true},"\#(user.id)":{"read":true,"write":true}}"#
    try rig.store.setUserACL(userID: user.id, json: publicRead)
    let docs = backend.userDocuments
    _ = try await docs.ensureDocument(for: user)
    _ = try await docs.updateDocument(setting: ["level": .integer(2)])
    #expect(try rig.store.userACL(userID: user.id) == publicRead)

    try await docs.deleteDocument(userID: nil)
    try rig.store.setUserACL(userID: user.id, json: publicRead)
    #expect(try await docs.ensureDocument(for: user).created)
    let acl = try #require(try rig.store.userACL(userID: user.id))
    let object = try JSONSerialization.jsonObject(with: Data(acl.utf8)) as? [String: Any]
    #expect(object?.keys.sorted() == [user.id])
  }
}
