import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// A user object this client cannot read (another client wrote one name in two spellings,
/// or a `Date` without a valid `iso`) can still be repaired: an update removing or
/// replacing the member and a delete are sent, naming the members in their own bytes, and
/// the read error stays for reads. Before, both read first and threw, so nothing could
/// ever repair or remove such a document.
@Suite("NCMB documents: an unreadable object can still be repaired", .timeLimit(.minutes(1)))
struct NCMBUnreadableObjectRepairTests {
  static let nfc = "caf\u{E9}"
  static let nfd = "cafe\u{301}"
  static let marker = #""documentCreateDate":{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"},"#

  static func object(_ members: String, marked: Bool = true, id: String = Fixture.userID)
    -> String
  {
    #"{"objectId":"\#(id)","createDate":"2025-06-01T00:00:00.000Z","#
      + #""updateDate":"2026-01-01T00:00:00.000Z","acl":{},\#(marked ? marker : "")\#(members)}"#
  }

  /// Answers `GET` with `before` until a `PUT` arrives, then with `after`; keeps the
  /// `PUT` bodies.
  final class Server: Sendable {
    let puts = LockedValue<[Data]>([])
    let transport: NCMBObjectServer

    init(before: String, after: String) {
      let puts = self.puts
      transport = NCMBObjectServer(hook: { request, _ in
        if request.method == .put {
          puts.withLock { $0.append(request.body) }
          return NCMBObjectServer.json(200, #"{"updateDate":"2026-01-01T00:00:05.000Z"}"#)
        }
        return NCMBObjectServer.json(200, puts.withLock { $0.isEmpty } ? before : after)
      })
    }

    /// Each PUT's members: name (as bytes) and value text.
    var putMembers: [[([UInt8], String)]] {
      puts.withLock { $0 }.map { body in
        (JSONObjectMembers.members(body) ?? []).map {
          (Array($0.name.utf8), String(decoding: $0.value, as: UTF8.self))
        }
      }
    }
  }

  static let delete = #"{"__op":"Delete"}"#

  @Test(
    "an update removing the unreadable member is sent in its own bytes and repairs",
    arguments: [
      (#""caf\#u{E9}":1,"cafe\#u{301}":2"#, nfc, #""cafe\#u{301}":2"#, true),
      (#""cafe\#u{301}":1,"caf\#u{E9}":2"#, nfd, #""caf\#u{E9}":2"#, true),
      (#""when":{"__type":"Date","iso":"2026-12-01 10:00"},"x":1"#, "when", #""x":1"#, true),
      (#""when":{"__type":"Date","iso":"2026-12-01 10:00"},"x":1"#, "when", #""x":1"#, false),
    ])
  func unset(before: String, removing: String, after: String, marked: Bool) async throws {
    let server = Server(
      before: Self.object(before, marked: marked), after: Self.object(after))
    let store = try server.transport.backend().userDocuments
    // The read error stays for reads.
    let read = await documentOutcome { () async throws(UserBackendError) in
      try await store.document()
    }
    guard case .malformedResponse = read.errorCode else {
      Issue.record("expected malformedResponse, got \(read)")
      return
    }
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.updateDocument(setting: [:], removing: [removing])
    }
    guard case .success(let document) = result else {
      Issue.record("the repair failed: \(result)")
      return
    }
    let puts = server.putMembers
    try #require(puts.count == 1)
    // Exactly the named spelling, in its bytes; the marker (from createDate) when absent.
    let deleted = puts[0].filter { $0.1 == Self.delete }.map(\.0)
    #expect(deleted == [Array(removing.utf8)])
    #expect(puts[0].contains { $0.0 == Array("documentCreateDate".utf8) } == !marked)
    #expect(puts[0].contains { $0.0 == Array("acl".utf8) } == false)
    #expect(document.fields.count == 1)
  }

  @Test("a delete names every field in its own bytes, also one it cannot decode")
  func delete() async throws {
    let before =
      #""caf\#u{E9}":1,"cafe\#u{301}":2,"when":{"__type":"Date","iso":"x"},"#
      + #""displayName":"Ann""#
    let server = Server(before: Self.object(before), after: Self.object(#""displayName":"Ann""#))
    let store = try server.transport.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.deleteDocument(userID: nil)
    }
    guard case .success = result else {
      Issue.record("the delete failed: \(result)")
      return
    }
    let puts = server.putMembers
    try #require(puts.count == 1)
    #expect(puts[0].allSatisfy { $0.1 == Self.delete })
    #expect(
      Set(puts[0].map(\.0))
        == Set(
          [Self.nfc, Self.nfd, "when", "documentCreateDate", "documentCreateNonce"].map {
            Array($0.utf8)
          }))
  }

  @Test("an answer naming another object, or not an object, is never written on")
  func notTheUsersObject() async throws {
    for before in [
      Self.object(#""caf\#u{E9}":1,"cafe\#u{301}":2"#, id: "otherUser12345"),
      #"{"objectId":"\#(Fixture.userID)","objectId":"x","caf\#u{E9}":1,"cafe\#u{301}":2}"#,
      #"["caf\#u{E9}"]"#,
    ] {
      let server = Server(before: before, after: before)
      let store = try server.transport.backend().userDocuments
      let update = await documentOutcome { () async throws(UserBackendError) in
        try await store.updateDocument(setting: [:], removing: [Self.nfc])
      }
      let delete = await documentOutcome { () async throws(UserBackendError) in
        try await store.deleteDocument(userID: nil)
      }
      #expect(update.errorCode != nil, "\(before)")
      #expect(delete.errorCode != nil, "\(before)")
      #expect(server.putMembers.isEmpty, "\(before)")
    }
  }

  @Test("an update that does not repair throws the read's error after the write")
  func stillUnreadable() async throws {
    let before = Self.object(#""caf\#u{E9}":1,"cafe\#u{301}":2"#)
    let server = Server(before: before, after: before)
    let store = try server.transport.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.updateDocument(setting: ["x": .integer(1)], removing: [])
    }
    guard case .malformedResponse(let reason) = result.errorCode else {
      Issue.record("expected malformedResponse, got \(result)")
      return
    }
    #expect(reason.contains("canonically"), "\(reason)")
    #expect(server.putMembers.count == 1)
  }
}
