import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// The user-document calls read and write the user object `users/{objectId}`. An answer
/// that does not say it is that object (`objectId` missing, not a string, or another
/// user's), to a read or to a write, is `.malformedResponse`: never shown as the user's
/// document, and the session stays.
@Suite("NCMB: user-document answers must name the requested user", .timeLimit(.minutes(1)))
struct NCMBDocumentAnswerOwnerTests {
  private static func expectMalformed(_ code: UserBackendError.Code?, _ name: String) {
    guard case .malformedResponse = code else {
      Issue.record("\(name): expected malformedResponse, got \(String(describing: code))")
      return
    }
  }

  /// `objectId` members that do not name `Fixture.userID` (`nil`: left out).
  static let otherObjectIds: [String?] = [
    nil, #""someoneElse000""#, "42", "null", #""""#, #""\#(Fixture.userID.lowercased())""#,
    #"["\#(Fixture.userID)"]"#,
  ]

  @Test(arguments: otherObjectIds) func aReadAnswer(_ objectId: String?) async throws {
    let server = NCMBObjectServer()
    server.seed(
      Fixture.userID,
      json: #"{"documentCreateDate":{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"},"x":1}"#)
    if let objectId { server.set(Fixture.userID, "objectId", json: objectId) }
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try server.backend(store: store)
    let outcome = await documentOutcome { () async throws(UserBackendError) in
      try await backend.userDocuments.document(userID: nil)
    }
    Self.expectMalformed(outcome.errorCode, "\(String(describing: objectId))")
    #expect(try await store.load() == before)
  }

  /// The document writes (each sends `PUT users/{objectId}`).
  enum Write: String, CaseIterable, CustomTestStringConvertible {
    case create, update, delete
    var testDescription: String { rawValue }
  }

  @Test(arguments: Write.allCases) func aWriteAnsweredForAnotherUser(_ write: Write) async throws {
    let server = NCMBObjectServer(hook: { request, _ in
      guard request.method == .put else { return nil }
      return NCMBObjectServer.json(
        200, #"{"updateDate":"2026-01-01T00:00:05.000Z","objectId":"someoneElse000"}"#)
    })
    if write == .delete {
      server.set(
        Fixture.userID, "documentCreateDate",
        json: #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#)
    }
    let backend = try server.backend()
    let outcome = await documentOutcome { () async throws(UserBackendError) in
      switch write {
      case .create:
        _ = try await backend.userDocuments.createDocument(userID: nil, fields: ["x": .integer(1)])
      case .update: _ = try await backend.userDocuments.updateDocument(setting: ["x": .integer(1)])
      case .delete: try await backend.userDocuments.deleteDocument(userID: nil)
      }
    }
    Self.expectMalformed(outcome.errorCode, write.rawValue)
    #expect(server.requests.filter { $0.method == .put }.count == 1)
  }

  @Test func theOwnObjectIsRead() async throws {
    let server = NCMBObjectServer()
    server.set(
      Fixture.userID, "documentCreateDate",
      json: #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#)
    server.set(Fixture.userID, "x", json: "1")
    let backend = try server.backend()
    let document = try await backend.userDocuments.document()
    #expect(document?.fields == ["x": .integer(1)])
  }
}
