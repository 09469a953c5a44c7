import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// A user-object answer that `JSONSerialization` would read with a loss is
/// `.malformedResponse` naming the field: two member names that are the same text in other
/// bytes (the service keeps both; a Swift dictionary one) and a number a double cannot hold
/// (`1e-400` read as 0).
@Suite("NCMB documents: a lossy answer is refused naming the field", .timeLimit(.minutes(1)))
struct NCMBLossyAnswerTests {
  static let marker = #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#
  static let head = #"{"objectId":"\#(Fixture.userID)","documentCreateDate":\#(marker),"#

  @Test(
    arguments: [
      (#""caf\#u{E9}":1,"cafe\#u{301}":2}"#, "cafe\u{301}"),
      (#""m":{"cafe\#u{301}":1,"caf\#u{E9}":2}}"#, "m.caf\u{E9}"),
      (#""x":1e-400}"#, "x"), (#""x":-1e-400}"#, "x"), (#""x":1e400}"#, "x"),
      (#""a":[0,{"y":2.5e-999}]}"#, "a[1].y"),
    ])
  func refused(members: String, field: String) async throws {
    let body = Self.head + members
    let server = NCMBObjectServer(hook: { _, _ in NCMBObjectServer.json(200, body) })
    let store = try server.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.document()
    }
    guard case .malformedResponse(let reason) = result.errorCode else {
      Issue.record("expected malformedResponse, got \(String(describing: result.errorCode))")
      return
    }
    #expect(reason.contains("field \(field):"), "\(reason)")
  }
}
