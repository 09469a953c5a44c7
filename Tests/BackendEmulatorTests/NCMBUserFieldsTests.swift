import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// NCMB user objects' own fields and ACL, over loopback HTTP, on the store the Firestore
/// handler serves too.
@Suite("NCMB user fields and ACL over HTTP", .timeLimit(.minutes(2)))
struct NCMBUserFieldsTests {
  private func signUp(_ name: String, port: Int) async throws -> (id: String, token: String) {
    let answer = try await send(
      NCMBRequests(base: "http://127.0.0.1:\(port)").request(
        .post, "/2013-09-01/users", body: ["userName": name, "password": "secret1"]),
      port: port)
    return (answer.json["objectId"] as? String ?? "", answer.json["sessionToken"] as? String ?? "")
  }

  @Test func aFieldWriteMovesTheUserObjectsUpdateDate() async throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { stopInBackground(server) }
    let requests = NCMBRequests(base: "http://127.0.0.1:\(port)")
    let ann = try await signUp("ann", port: port)
    let before = try await send(
      requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token), port: port)
    clock.advance(by: 60)
    let put = try await send(
      requests.request(
        .put, "/2013-09-01/users/\(ann.id)", body: ["nick": "A"], sessionToken: ann.token),
      port: port)
    #expect(put.status == 200)
    let after = try await send(
      requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token), port: port)
    let was = try #require(before.json["updateDate"] as? String)
    let now = try #require(after.json["updateDate"] as? String)
    #expect(now > was, "updateDate \(was) -> \(now)")
    #expect(now == put.json["updateDate"] as? String)
  }

  @Test func fieldsRoundTripAndTheOwnerOnlyACLHidesTheObject() async throws {
    let store = try makeStore()
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { stopInBackground(server) }
    let requests = NCMBRequests(base: "http://127.0.0.1:\(port)")
    let ann = try await signUp("ann", port: port)
    let bob = try await signUp("bob", port: port)

    let put = try await send(
      requests.request(
        .put, "/2013-09-01/users/\(ann.id)",
        body: [
          "display_name": "anonymous", "count": 42, "ratio": 0.5, "ok": true, "none": NSNull(),
          "create_date": ["__type": "Date", "iso": "2025-11-30T12:00:00.123Z"],
          "tags": ["a", 1], "profile": ["nick": "A"],
          "acl": [ann.id: ["read": true, "write": true]],
        ], sessionToken: ann.token),
      port: port)
    #expect(put.status == 200)
    let stored = try #require(try store.document(userID: ann.id)).fields
    #expect(stored["count"] == .integer(42))
    #expect(stored["ratio"] == .double(0.5))
    #expect(stored["ok"] == .bool(true))
    #expect(stored["none"] == .null)
    #expect(
      stored["create_date"]
        == .timestamp(DocumentTimestamp.date(microseconds: 1_764_504_000_123_000)))
    #expect(stored["tags"] == .array([.string("a"), .integer(1)]))
    #expect(stored["acl"] == nil)

    let own = try await send(
      requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token), port: port)
    #expect(own.status == 200)
    #expect(own.json["display_name"] as? String == "anonymous")
    #expect(own.json["count"] as? Int == 42)
    #expect(
      (own.json["create_date"] as? [String: Any])?["iso"] as? String == "2025-11-30T12:00:00.123Z")
    #expect((own.json["acl"] as? [String: Any])?.keys.sorted() == [ann.id])

    // Hidden from another user and from nobody: the documented "Get user" error.
    for token in [bob.token, nil] {
      let other = try await send(
        requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: token), port: port)
      #expect(other.status == 404)
      #expect(other.json["code"] as? String == "E404001")
      #expect(!other.bodyText.contains("anonymous"))
    }
    // Writes by another user: E403001, nothing changed.
    let write = try await send(
      requests.request(
        .put, "/2013-09-01/users/\(ann.id)", body: ["display_name": "bob was here"],
        sessionToken: bob.token),
      port: port)
    #expect(write.status == 403)
    #expect(write.json["code"] as? String == "E403001")
    let delete = try await send(
      requests.request(.delete, "/2013-09-01/users/\(ann.id)", sessionToken: bob.token),
      port: port)
    #expect(delete.json["code"] as? String == "E403001")
    #expect(try store.document(userID: ann.id)?.fields["display_name"] == .string("anonymous"))

    // Removing a field; a reserved or malformed one is refused before anything is written.
    let removed = try await send(
      requests.request(
        .put, "/2013-09-01/users/\(ann.id)", body: ["ratio": ["__op": "Delete"]],
        sessionToken: ann.token),
      port: port)
    #expect(removed.status == 200)
    #expect(try store.document(userID: ann.id)?.fields["ratio"] == nil)
    for body: [String: Any] in [
      ["_id": "x", "a": 1], ["a": 1, "b": ["__type": "Pointer", "className": "x"]],
      ["a": 1, "": 2],
      ["a": 1, "m": ["": 1]],
      ["a": 1, "b": ["__op": "Increment", "amount": 1]],
    ] {
      let refused = try await send(
        requests.request(.put, "/2013-09-01/users/\(ann.id)", body: body, sessionToken: ann.token),
        port: port)
      #expect(refused.status == 400)
      #expect(try store.document(userID: ann.id)?.fields["a"] == nil)
    }
  }

  @Test func oneStoreServesBothProtocols() async throws {
    let store = try makeStore()
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { stopInBackground(server) }
    let ann = try await signUp("ann", port: port)
    _ = try store.updateDocument(
      userID: ann.id, setting: ["from": .string("firestore side")], removing: [])
    let read = try await send(
      NCMBRequests(base: "http://127.0.0.1:\(port)").request(
        .get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token),
      port: port)
    #expect(read.json["from"] as? String == "firestore side")
    // Without a stored ACL the object keeps the default (public read).
    #expect((read.json["acl"] as? [String: Any])?["*"] != nil)
  }
}
