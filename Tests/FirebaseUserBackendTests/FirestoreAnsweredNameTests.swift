import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A Firestore document answer says which document it is (`name`); an answer naming any
/// other document than the one requested (another user, another project or database, a
/// sub-document, another spelling) or naming none is `.malformedResponse`, never shown as
/// the requested user's document.
@Suite("Firestore: an answer naming another document is refused", .timeLimit(.minutes(1)))
struct FirestoreAnsweredNameTests {
  static let root = "projects/demo-project/databases/(default)/documents"

  /// Names that are not `users/uid-1` of `demo-project`.
  static let otherNames: [String?] = [
    root + "/users/EVE", "projects/evil/databases/(default)/documents/users/uid-1",
    "projects/demo-project/databases/other/documents/users/uid-1",
    root + "/users/uid-1/notes/n1", root + "/users/uid%2D1", root + "/users/UID-1",
    root + "/users/uid-1/", "/" + root + "/users/uid-1", root + "/others/uid-1", "users/uid-1", "",
    nil,
  ]

  static func document(named name: String?) -> String {
    let member = name.map { #""name":"\#($0)","# } ?? ""
    return
      #"{\#(member)"fields":{"x":{"integerValue":"1"}},"createTime":"2026-01-01T00:00:00Z","updateTime":"2026-01-01T00:00:01Z"}"#
  }

  static func expectMalformed(_ result: Result<UserDocument?, UserBackendError>, _ name: String?) {
    guard case .malformedResponse = result.errorCode else {
      Issue.record("\(String(describing: name)): expected malformedResponse, got \(result)")
      return
    }
  }

  @Test(arguments: otherNames) func aReadAnswer(_ name: String?) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, Self.document(named: name))
    let store = try stub.backend().userDocuments
    let result = await outcome { () async throws(UserBackendError) in
      try await store.document()
    }
    Self.expectMalformed(result, name)
  }

  @Test(arguments: otherNames) func theReadAfterAnUpdate(_ name: String?) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}]}"#)
    stub.enqueue(200, Self.document(named: name))
    let store = try stub.backend().userDocuments
    let result = await outcome { () async throws(UserBackendError) -> UserDocument? in
      try await store.updateDocument(setting: ["x": .integer(1)])
    }
    Self.expectMalformed(result, name)
  }

  @Test func aReadOfAnotherUsersIDAnsweredWithTheOwnDocument() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, Self.document(named: Self.root + "/users/uid-1"))
    let store = try stub.backend().userDocuments
    let result = await outcome { () async throws(UserBackendError) in
      try await store.document(userID: "bob")
    }
    Self.expectMalformed(result, "users/uid-1 for bob")
  }

  @Test func theRequestedNameIsAccepted() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, Self.document(named: Self.root + "/users/uid-1"))
    stub.enqueue(200, Self.document(named: Self.root + "/users/bob"))
    let store = try stub.backend().userDocuments
    #expect(try await store.document()?.fields == ["x": .integer(1)])
    #expect(try await store.document(userID: "bob")?.userID == "bob")
  }
}
