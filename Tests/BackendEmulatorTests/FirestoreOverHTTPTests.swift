import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// Raw Firestore REST requests over loopback HTTP, as a user writes them with curl from
/// docs/wire/firestore.md: the owner rule, the error bodies, masks, preconditions, commits.
@Suite("Firestore REST subset over HTTP", .timeLimit(.minutes(2)))
struct FirestoreOverHTTPTests {
  /// A running emulator with two signed-up users.
  struct Running {
    let clock: ManualClock
    let store: UserStore
    let server: EmulatorServer
    let port: Int
    let ann: (uid: String, token: String)
    let bob: (uid: String, token: String)

    var root: String {
      "http://127.0.0.1:\(port)/v1/projects/demo-project/databases/(default)/documents"
    }

    func name(_ uid: String) -> String {
      "projects/demo-project/databases/(default)/documents/users/\(uid)"
    }

    func request(
      _ method: HTTPMethod, _ path: String, token: String?, body: [String: Any]? = nil
    ) async throws -> RawResponse {
      var fields: HTTPFields = ["Content-Type": "application/json"]
      if let token { fields["Authorization"] = "Bearer \(token)" }
      let request = HTTPRequest(
        method: method, url: URL(string: root + path)!, headerFields: fields,
        body: body.map(jsonData) ?? Data())
      return try await send(request, port: port)
    }
  }

  private func start() async throws -> Running {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_764_504_000.5))
    let store = try makeStore(clock: clock)
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    let requests = FirebaseRequests(base: "http://127.0.0.1:\(port)")
    var users: [(String, String)] = []
    for email in ["ann@example.com", "bob@example.com"] {
      let answer = try await send(
        requests.accounts(
          "signUp", ["email": email, "password": "secret1", "returnSecureToken": true]),
        port: port)
      users.append(
        (answer.json["localId"] as? String ?? "", answer.json["idToken"] as? String ?? ""))
    }
    return Running(
      clock: clock, store: store, server: server, port: port, ann: users[0], bob: users[1])
  }

  private func error(_ response: RawResponse) -> (Int?, String?, String?) {
    let error = response.json["error"] as? [String: Any]
    return (error?["code"] as? Int, error?["status"] as? String, error?["message"] as? String)
  }

  @Test func createGetPatchWithMaskAndDelete() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    let fields: [String: Any] = [
      "uid": ["stringValue": run.ann.uid], "count": ["integerValue": "9223372036854775807"],
      "ratio": ["doubleValue": 0.1], "ok": ["booleanValue": true], "none": ["nullValue": NSNull()],
      "at": ["timestampValue": "2025-11-30T12:00:00.123456Z"],
      "tags": ["arrayValue": ["values": [["stringValue": "a"]]]], "empty": ["arrayValue": [:]],
      "profile": ["mapValue": ["fields": ["nick": ["stringValue": "A"]]]],
    ]
    let created = try await run.request(
      .post, "/users?documentId=\(run.ann.uid)", token: run.ann.token, body: ["fields": fields])
    #expect(created.status == 200)
    #expect(created.json["name"] as? String == run.name(run.ann.uid))
    #expect(created.json["createTime"] as? String == "2025-11-30T12:00:00.500000Z")

    let read = try await run.request(.get, "/users/\(run.ann.uid)", token: run.ann.token)
    #expect(read.status == 200)
    let readFields = try #require(read.json["fields"] as? [String: Any])
    #expect(
      (readFields["count"] as? [String: Any])?["integerValue"] as? String == "9223372036854775807")
    #expect(
      (readFields["at"] as? [String: Any])?["timestampValue"] as? String
        == "2025-11-30T12:00:00.123456Z")
    #expect(read.bodyText.contains("\"empty\":{\"arrayValue\":{}}"))
    #expect(
      ((readFields["profile"] as? [String: Any])?["mapValue"] as? [String: Any]) != nil)

    let again = try await run.request(
      .post, "/users?documentId=\(run.ann.uid)", token: run.ann.token, body: ["fields": [:]])
    #expect(again.status == 409)
    #expect(error(again).1 == "ALREADY_EXISTS")
    #expect(error(again).2 == "Document already exists: \(run.name(run.ann.uid))")

    // Mask: ok listed and sent (set), ratio listed and absent (removed), the rest kept.
    run.clock.advance(by: 1)
    let patched = try await run.request(
      .patch,
      "/users/\(run.ann.uid)?updateMask.fieldPaths=ok&updateMask.fieldPaths=ratio"
        + "&updateMask.fieldPaths=profile.nick&currentDocument.exists=true",
      token: run.ann.token,
      body: [
        "fields": [
          "ok": ["booleanValue": false], "uid": ["stringValue": "ignored: not in the mask"],
          "profile": ["mapValue": ["fields": ["nick": ["stringValue": "B"]]]],
        ]
      ])
    #expect(patched.status == 200)
    let stored = try #require(try run.store.document(userID: run.ann.uid))
    #expect(stored.fields["ok"] == .bool(false))
    #expect(stored.fields["ratio"] == nil)
    #expect(stored.fields["uid"] == .string(run.ann.uid))
    #expect(stored.fields["profile"] == .map(["nick": .string("B")]))
    #expect(stored.fields["count"] == .integer(.max))
    #expect(patched.json["updateTime"] as? String == "2025-11-30T12:00:01.500000Z")

    // Without a mask: replace.
    let replaced = try await run.request(
      .patch, "/users/\(run.ann.uid)", token: run.ann.token,
      body: ["fields": ["only": ["integerValue": "-1"]]])
    #expect(replaced.status == 200)
    #expect(try run.store.document(userID: run.ann.uid)?.fields == ["only": .integer(-1)])

    let deleted = try await run.request(.delete, "/users/\(run.ann.uid)", token: run.ann.token)
    #expect(deleted.status == 200)
    #expect(deleted.bodyText == "{}")
    let deletedAgain = try await run.request(.delete, "/users/\(run.ann.uid)", token: run.ann.token)
    #expect(deletedAgain.status == 200)

    let missing = try await run.request(.get, "/users/\(run.ann.uid)", token: run.ann.token)
    #expect(missing.status == 404)
    #expect(
      error(missing)
        == (404, "NOT_FOUND", "Document \"\(run.name(run.ann.uid))\" not found."))
    let noUpdate = try await run.request(
      .patch, "/users/\(run.ann.uid)?currentDocument.exists=true", token: run.ann.token,
      body: ["fields": [:]])
    #expect(
      error(noUpdate) == (404, "NOT_FOUND", "No document to update: \(run.name(run.ann.uid))"))
  }

  @Test func theOwnerRuleRefusesAnotherUserAndNobody() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    _ = try await run.request(
      .post, "/users?documentId=\(run.ann.uid)", token: run.ann.token,
      body: ["fields": ["a": ["integerValue": "1"]]])
    let denied = (403, "PERMISSION_DENIED", "Missing or insufficient permissions.")
    let attempts: [(HTTPMethod, String, [String: Any]?)] = [
      (.get, "/users/\(run.ann.uid)", nil),
      (.patch, "/users/\(run.ann.uid)", ["fields": ["a": ["integerValue": "2"]]]),
      (.delete, "/users/\(run.ann.uid)", nil),
      (.post, "/users?documentId=\(run.ann.uid)", ["fields": [:]]),
      // A document that does not exist yet: the rule, not existence, decides.
      (.get, "/users/someone-else", nil),
    ]
    for (method, path, body) in attempts {
      for token in [run.bob.token, nil] {
        let response = try await run.request(method, path, token: token, body: body)
        #expect(error(response) == denied, "\(method) \(path) token: \(token != nil)")
      }
    }
    let commit = try await run.request(
      .post, ":commit", token: run.bob.token,
      body: ["writes": [["delete": run.name(run.ann.uid)]]])
    #expect(error(commit) == denied)
    #expect(try run.store.document(userID: run.ann.uid)?.fields == ["a": .integer(1)])
    // The admin credential bypasses the rule.
    let admin = try await run.request(.get, "/users/\(run.ann.uid)", token: "owner")
    #expect(admin.status == 200)
  }

  @Test func expiredOrForgedTokensAreUnauthenticated() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    for token in ["not-a-jwt", "e30.e30.", "Zm9v"] {
      let response = try await run.request(.get, "/users/\(run.ann.uid)", token: token)
      #expect(error(response).0 == 401)
      #expect(error(response).1 == "UNAUTHENTICATED")
      #expect(!response.bodyText.contains(token))
    }
    run.clock.advance(by: 3_601)
    let expired = try await run.request(.get, "/users/\(run.ann.uid)", token: run.ann.token)
    #expect(error(expired).0 == 401)
    #expect(error(expired).1 == "UNAUTHENTICATED")
  }

  @Test func commitCreatesIfAbsentWithRequestTime() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    let write: [String: Any] = [
      "update": [
        "name": run.name(run.ann.uid),
        "fields": [
          "uid": ["stringValue": run.ann.uid], "display_name": ["stringValue": "anonymous"],
        ],
      ],
      "currentDocument": ["exists": false],
      "updateTransforms": [["fieldPath": "create_date", "setToServerValue": "REQUEST_TIME"]],
    ]
    let first = try await run.request(
      .post, ":commit", token: run.ann.token, body: ["writes": [write]])
    #expect(first.status == 200)
    let commitTime = try #require(first.json["commitTime"] as? String)
    #expect(commitTime == "2025-11-30T12:00:00.500000Z")
    let results = try #require(first.json["writeResults"] as? [[String: Any]])
    #expect(results.first?["updateTime"] as? String == commitTime)
    let transforms = try #require(results.first?["transformResults"] as? [[String: Any]])
    #expect(transforms.first?["timestampValue"] as? String == commitTime)
    let stored = try #require(try run.store.document(userID: run.ann.uid))
    #expect(stored.fields["create_date"] == .timestamp(stored.createTime))

    let second = try await run.request(
      .post, ":commit", token: run.ann.token, body: ["writes": [write]])
    #expect(error(second).0 == 409)
    #expect(error(second).1 == "ALREADY_EXISTS")
  }

  @Test func unsupportedValuesAndPathsAreRefusedNamingThem() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    let bytes = try await run.request(
      .patch, "/users/\(run.ann.uid)", token: run.ann.token,
      body: ["fields": ["photo": ["bytesValue": "AAEC"]]])
    #expect(error(bytes).0 == 400)
    #expect(error(bytes).1 == "INVALID_ARGUMENT")
    #expect(error(bytes).2?.contains("fields.photo") == true)
    let other = try await run.request(.get, "/posts/1", token: "owner")
    #expect(error(other).0 == 404)
    #expect(error(other).1 == "NOT_FOUND")
    let badName = try await run.request(
      .patch, "/users/\(run.ann.uid)", token: run.ann.token,
      body: ["fields": ["": ["nullValue": NSNull()]]])
    #expect(error(badName).0 == 400)
    #expect(try run.store.document(userID: run.ann.uid) == nil)
  }

  @Test func quotedFieldPathsAndMalformedValuesNameTheField() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    let quoted = try await run.request(
      .patch, "/users/\(run.ann.uid)?updateMask.fieldPaths=%60display-name%60",
      token: run.ann.token, body: ["fields": ["display-name": ["stringValue": "Ann"]]])
    #expect(quoted.status == 200)
    #expect(try run.store.document(userID: run.ann.uid)?.fields == ["display-name": .string("Ann")])
    for (value, field) in [
      (["integerValue": "1.5"], "fields.n"), (["timestampValue": "yesterday"], "fields.n"),
      (["mapValue": ["fields": ["deep": ["stringValue": 5]]]], "fields.n.deep"),
      (["arrayValue": ["values": [["integerValue": "x"]]]], "fields.n[0]"),
    ] as [([String: Any], String)] {
      let response = try await run.request(
        .patch, "/users/\(run.ann.uid)", token: run.ann.token, body: ["fields": ["n": value]])
      #expect(error(response).0 == 400)
      #expect(error(response).2?.contains("'\(field)'") == true, "\(value)")
    }
    let badPath = try await run.request(
      .patch, "/users/\(run.ann.uid)?updateMask.fieldPaths=display-name", token: run.ann.token,
      body: ["fields": [:]])
    #expect(error(badPath).0 == 400)
    #expect(try run.store.document(userID: run.ann.uid)?.fields == ["display-name": .string("Ann")])
  }

  @Test func deletingTheAccountDeletesTheDocument() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    _ = try await run.request(
      .post, "/users?documentId=\(run.ann.uid)", token: run.ann.token, body: ["fields": [:]])
    let deleted = try await send(
      FirebaseRequests(base: "http://127.0.0.1:\(run.port)").accounts(
        "delete", ["idToken": run.ann.token]),
      port: run.port)
    #expect(deleted.status == 200)
    let read = try await run.request(.get, "/users/\(run.ann.uid)", token: "owner")
    #expect(read.status == 404)
  }
}
