import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A Firestore document holding one name in two spellings (another client wrote the
/// second) cannot be read, but the update that removes one spelling is sent without a
/// read first, in that spelling's bytes, and answers the repaired document. (The CLI's
/// `doc unset`, which reads first, is tested in DocUnsetUnreadableTests.)
@Suite("Firestore: a document this client cannot read can be repaired", .timeLimit(.minutes(1)))
struct FirestoreUnreadableRepairTests {
  static let nfc = "caf\u{E9}"
  static let nfd = "cafe\u{301}"

  @Test(arguments: [(nfc, nfd), (nfd, nfc)])
  func removeOneSpelling(removing: String, kept: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(
      200,
      FirestoreStub.documentJSON(
        #"{"\#(Self.nfc)":{"integerValue":"1"},"\#(Self.nfd)":{"integerValue":"2"}}"#))
    stub.enqueue(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}]}"#)
    stub.enqueue(200, FirestoreStub.documentJSON(#"{"\#(kept)":{"integerValue":"2"}}"#))
    let store = try stub.backend().userDocuments
    let read = await outcome { () async throws(UserBackendError) in try await store.document() }
    guard case .malformedResponse = read.errorCode else {
      Issue.record("expected malformedResponse, got \(read)")
      return
    }
    let document = try await store.updateDocument(setting: [:], removing: [removing])
    #expect(document.fields.keys.map { Array($0.utf8) } == [Array(kept.utf8)])
    let commit = try #require(stub.firestoreRequests.last { $0.url.path.hasSuffix(":commit") })
    let text = String(decoding: commit.body, as: UTF8.self)
    // The mask names the removed spelling in its own bytes, and only it.
    #expect(text.utf8.contains(Array("`\(removing)`".utf8)))
    #expect(!text.utf8.contains(Array("`\(kept)`".utf8)))
  }
}
