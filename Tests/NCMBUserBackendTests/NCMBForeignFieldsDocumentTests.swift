import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// Fields another NCMB client stored on the user object are the user's document: existence
/// is decided by the data, the markers only break ties between this adapter's creates
/// (docs/wire/ncmb.md §7, "Existence" and "ACL").
@Suite("NCMB: fields another client wrote are the document", .timeLimit(.minutes(1)))
struct NCMBForeignFieldsDocumentTests {
  /// The fixture object's `createDate`, the `createTime` of a document without the marker.
  static let objectCreated = DocumentTimestamp.parse("2013-08-28T11:27:16.446Z")
  static let objectCreatedJSON = #"{"__type":"Date","iso":"2013-08-28T11:27:16.446Z"}"#

  /// The fixture object with what an NCMB SDK app stored on it.
  static func serverWithForeignFields() -> NCMBObjectServer {
    let server = NCMBObjectServer()
    server.set(Fixture.userID, "display_name", json: #""Ada Lovelace""#)
    server.set(
      Fixture.userID, "create_date", json: #"{"__type":"Date","iso":"2020-01-01T00:00:00.000Z"}"#)
    server.set(Fixture.userID, "score", json: "99")
    return server
  }

  static let foreignFields: [String: DocumentValue] = [
    "display_name": .string("Ada Lovelace"),
    "create_date": .timestamp(DocumentTimestamp.parse("2020-01-01T00:00:00.000Z")!),
    "score": .integer(99),
  ]

  @Test("Read: the fields are the document, created at the object's createDate")
  func read() async throws {
    let server = Self.serverWithForeignFields()
    let document = try #require(try await server.backend().userDocuments.document())
    #expect(document.fields == Self.foreignFields)
    #expect(document.createTime == Self.objectCreated)
  }

  @Test("Profile fields and the service's members alone are no document")
  func profileOnly() async throws {
    let server = NCMBObjectServer()
    server.set(Fixture.userID, "displayName", json: #""Ada""#)
    server.set(Fixture.userID, "photoURL", json: #""https://example.com/a.png""#)
    #expect(try await server.backend().userDocuments.document() == nil)
  }

  @Test("ensureDocument reads it only: created is false, nothing is written")
  func ensure() async throws {
    let server = Self.serverWithForeignFields()
    let before = server.objectJSON(Fixture.userID)
    let backend = try server.backend()
    let user = try #require(try await backend.currentUser())
    let creation = try await backend.userDocuments.ensureDocument(for: user)
    #expect(!creation.created)
    #expect(creation.document.fields == Self.foreignFields)
    #expect(server.requests.map(\.method) == [.get])
    #expect(server.objectJSON(Fixture.userID) == before)
  }

  @Test("Update: the changes and the object's createDate as the marker, never the ACL")
  func update() async throws {
    let server = Self.serverWithForeignFields()
    let document = try await server.backend().userDocuments.updateDocument(
      setting: ["level": .integer(2)], removing: ["score"])
    #expect(server.requests.map(\.method) == [.get, .put, .get])
    #expect(
      String(decoding: server.requests[1].body, as: UTF8.self)
        == #"{"documentCreateDate":\#(Self.objectCreatedJSON),"level":2,"score":{"__op":"Delete"}}"#
    )
    #expect(document.createTime == Self.objectCreated)
    #expect(document.fields["level"] == .integer(2))
    #expect(document.fields["score"] == nil)
    #expect(server.objectJSON(Fixture.userID).contains(#""acl":{"*":{"read":true}}"#))
  }

  @Test("Delete removes the fields; a create then writes the owner-only ACL")
  func deleteThenCreate() async throws {
    let server = Self.serverWithForeignFields()
    let store = try server.backend().userDocuments
    try await store.deleteDocument(userID: nil)
    #expect(try await store.document() == nil)
    let creation = try await store.createDocument(userID: nil, fields: ["a": .integer(1)])
    #expect(creation.created)
    #expect(
      server.objectJSON(Fixture.userID).contains(
        #""acl":{"\#(Fixture.userID)":{"read":true,"write":true}}"#))
  }
}

/// `mailAddress` `null` is an account without an email; only an absent member falls back
/// to the address the request sent.
@Suite("NCMB: the email comes from mailAddress", .timeLimit(.minutes(1)))
struct NCMBMailAddressMappingTests {
  static func user(_ json: String) throws -> User {
    let response = try JSONDecoder().decode(NCMBUserResponse.self, from: Data(json.utf8))
    return NCMBUserMapping.user(
      from: response, hasPasswordIdentity: true, sentUserName: "boss@company.example",
      sentMailAddress: "boss@company.example")
  }

  @Test("null is no email, whatever was sent")
  func explicitNull() throws {
    let user = try Self.user(
      #"{"objectId":"u1","userName":"boss@company.example","mailAddress":null}"#)
    #expect(user.email == nil)
    #expect(user.username == "boss@company.example")
  }

  @Test("an address is the email")
  func present() throws {
    #expect(try Self.user(#"{"objectId":"u1","mailAddress":"a@b.example"}"#).email == "a@b.example")
  }

  @Test("an absent member (the sign-up answer) falls back to what was sent")
  func absent() throws {
    #expect(try Self.user(#"{"objectId":"u1"}"#).email == "boss@company.example")
  }
}
