import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A Firestore answer that `JSONDecoder` would read with a loss is `.malformedResponse`
/// naming the field: two field names that are the same text in other bytes (Firestore
/// keeps both; a Swift dictionary one), and a double written as a string that a double
/// cannot hold (`"1e-400"` read as 0).
@Suite("Firestore: a lossy answer is refused naming the field", .timeLimit(.minutes(1)))
struct FirestoreLossyAnswerTests {
  static let name = "projects/demo-project/databases/(default)/documents/users/uid-1"

  static func document(_ fields: String) -> String {
    #"{"name":"\#(name)","fields":{\#(fields)},"createTime":"2026-01-01T00:00:00Z","updateTime":"2026-01-01T00:00:01Z"}"#
  }

  @Test(
    arguments: [
      (
        #""caf\#u{E9}":{"integerValue":"1"},"cafe\#u{301}":{"integerValue":"2"}"#,
        "fields.cafe\u{301}"
      ),
      (
        #""m":{"mapValue":{"fields":{"cafe\#u{301}":{"nullValue":null},"caf\#u{E9}":{"nullValue":null}}}}"#,
        "fields.m.caf\u{E9}"
      ),
      (#""x":{"doubleValue":"1e-400"}"#, "x"), (#""x":{"doubleValue":"-1e-400"}"#, "x"),
      (#""x":{"doubleValue":1e-400}"#, "fields.x"),
    ])
  func refused(fields: String, field: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, Self.document(fields))
    let store = try stub.backend().userDocuments
    let result = await outcome { () async throws(UserBackendError) in
      try await store.document()
    }
    guard case .failure(let error) = result, case .malformedResponse(let reason) = error.code
    else {
      Issue.record("expected malformedResponse, got \(result)")
      return
    }
    #expect(reason.contains(field), "\(reason)")
    if field.hasPrefix("fields.") {
      // Found in the text before decoding: the reason says what is wrong.
      #expect(reason.contains("out of range") || reason.contains("canonically"), "\(reason)")
    }
  }
}
