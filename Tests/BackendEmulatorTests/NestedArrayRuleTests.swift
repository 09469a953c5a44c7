import AccountDatabase
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// Attack round 6, M3: an array directly inside an array was stored by every backend and
/// by the emulator, while production Firestore refuses it ("Cannot convert an array value
/// in an array value"). One rule now refuses it in every adapter and the fake, naming the
/// element, before any request; an array inside a map inside an array stays allowed. The
/// emulator's Firestore wire refuses it as Firestore does; its NCMB wire stores it, as the
/// NCMB service does (F6).
@Suite("An array directly inside an array is refused by every client", .timeLimit(.minutes(2)))
struct NestedArrayRuleTests {
  /// Writes every layer refuses, and the element their error names.
  static let refused: [(fields: [String: DocumentValue], field: String)] = [
    (["n": .array([.array([.integer(1), .integer(2)])])], "fields.n[0]"),
    (["n": .array([.integer(1), .array([.integer(2)])])], "fields.n[1]"),
    (["n": .array([.array([])])], "fields.n[0]"),
    (["m": .map(["n": .array([.string("a"), .array([])])])], "fields.m.n[1]"),
    (["n": .array([.map(["m": .array([.array([.null])])])])], "fields.n[0].m[0]"),
  ]

  /// Arrays that are not directly inside an array.
  static let accepted: [String: DocumentValue] = [
    "inMap": .array([.map(["inner": .array([.integer(1), .integer(2)])])]),
    "flat": .array([.integer(1), .string("x"), .null]),
    "map": .map(["list": .array([.bool(true)])]),
  ]

  private func refusal(_ body: () async throws(UserBackendError) -> Void) async -> String? {
    do {
      try await body()
      return nil
    } catch {
      if case .invalidInput(let field, _) = error.code { return field }
      return error.code.name
    }
  }

  private func signedIn(_ kind: DocumentBackendKind, _ rig: EmulatorRig) async throws
    -> any UserBackend
  {
    let backend: any UserBackend =
      switch kind {
      case .fake: FakeUserBackend(store: rig.store, sessionStore: InMemorySessionStore())
      case .firebase: try rig.firebase()
      case .ncmb: try rig.ncmb()
      }
    _ = try await backend.signUp(
      kind == .ncmb
        ? .username("ann", password: "secret1") : .email("ann@example.com", password: "secret1"))
    return backend
  }

  @Test(
    "every backend refuses the write, naming the element", arguments: DocumentBackendKind.allCases)
  func refusedByEveryBackend(kind: DocumentBackendKind) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try await signedIn(kind, rig)
    let docs = backend.userDocuments
    let userID = try #require(try await backend.currentUser()).id
    for (fields, field) in Self.refused {
      #expect(
        await refusal { () async throws(UserBackendError) in
          _ = try await docs.createDocument(userID: nil, fields: fields)
        } == field, "create \(fields)")
      #expect(
        await refusal { () async throws(UserBackendError) in
          _ = try await docs.updateDocument(setting: fields, removing: [])
        } == field, "update \(fields)")
    }
    #expect(try rig.store.document(userID: userID) == nil)
    let stored = try await docs.updateDocument(setting: Self.accepted, removing: [])
    #expect(stored.fields == Self.accepted)
    await rig.stop()
  }

  @Test func theFirestoreEmulatorAnswersInvalidArgument() async throws {
    let store = try makeStore()
    let handler = FirestoreHandler(store: store, projectID: "demo-project")
    let uid = try store.createUser(
      NewUser(email: "ann@example.com", username: nil, password: "secret1")
    ).id
    let url = URL(
      string: "http://127.0.0.1:8080/v1/projects/demo-project/databases/(default)/documents/users/"
        + uid)!
    for body in [
      #"{"fields":{"n":{"arrayValue":{"values":[{"arrayValue":{"values":[{"integerValue":"1"}]}}]}}}}"#,
      #"{"fields":{"n":{"arrayValue":{"values":[{"nullValue":null},{"arrayValue":{}}]}}}}"#,
    ] {
      let response = await handler.handle(
        HTTPRequest(
          method: .patch, url: url,
          headerFields: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
          body: Data(body.utf8)))
      let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
      let error = object?["error"] as? [String: Any]
      #expect(response.status == 400, "\(body)")
      #expect(error?["status"] as? String == "INVALID_ARGUMENT", "\(body)")
      #expect((error?["message"] as? String)?.contains("fields.n[") == true, "\(body)")
    }
    #expect(try store.document(userID: uid) == nil)
  }

  /// F6: the NCMB service stores an array directly inside an array, so the emulator's NCMB
  /// wire does too (before: `E400002`), and answers it back as sent; the Firestore wire
  /// still refuses writing one (above), and the NCMB adapter refuses it before any request
  /// (``refusedByEveryBackend(kind:)``) so that a document stays portable.
  @Test func theNCMBEmulatorStoresItAsTheServiceDoes() async throws {
    let store = try makeStore()
    let handler = NCMBHandler(store: store)
    let requests = NCMBRequests()
    let signUp = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": "ann", "password": "secret1"]))
    let id = try #require(signUp.json["objectId"] as? String)
    let token = try #require(signUp.json["sessionToken"] as? String)
    let body: [String: Any] = [
      "n": [[1, 2]], "m": ["n": [1, [2, ["x"]]]], "e": [[] as [Any]], "o": [["k": [[true]]]],
    ]
    let answer = await handler.handle(
      requests.request(.put, "/2013-09-01/users/\(id)", body: body, sessionToken: token))
    #expect(answer.status == 200, "\(answer.json)")
    let expected: [String: DocumentValue] = [
      "n": .array([.array([.integer(1), .integer(2)])]),
      "m": .map(["n": .array([.integer(1), .array([.integer(2), .array([.string("x")])])])]),
      "e": .array([.array([])]),
      "o": .array([.map(["k": .array([.array([.bool(true)])])])]),
    ]
    #expect(try store.document(userID: id)?.fields == expected)
    let read = await handler.handle(
      requests.request(.get, "/2013-09-01/users/\(id)", sessionToken: token))
    #expect(read.status == 200)
    let n = read.json["n"] as? [[Int]]
    #expect(n == [[1, 2]])
    let m = (read.json["m"] as? [String: Any])?["n"] as? [Any]
    #expect((m?[1] as? [Any])?.count == 2)
    #expect(read.json["e"] as? [[Int]] == [[]])
    // The other rules still apply on the NCMB wire: a name starting with __ inside.
    let refused = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["p": [[["__x": 1]]]], sessionToken: token))
    #expect(refused.status == 400)
    #expect(refused.json["code"] as? String == "E400002")
    #expect(try store.document(userID: id)?.fields == expected)
  }

  /// What another NCMB client stored through the wire reads back through the NCMB adapter
  /// (it refuses writing one, never reading one) and through the emulator's Firestore wire
  /// (the one store serves both; Firestore itself could hold no such document).
  @Test func aNestedArrayAnotherNCMBClientStoredReadsBack() async throws {
    let rig = try EmulatorRig(.inProcess)
    let ncmb = try rig.ncmb()
    let session = try await ncmb.signUp(.username("ann", password: "secret1"))
    let handler = NCMBHandler(store: rig.store)
    let answer = await handler.handle(
      NCMBRequests().request(
        .put, "/2013-09-01/users/\(session.user.id)", body: ["n": [[1, 2]]],
        sessionToken: session.bearerToken))
    #expect(answer.status == 200, "\(answer.json)")
    let read = try await ncmb.userDocuments.document()
    #expect(read?.fields["n"] == .array([.array([.integer(1), .integer(2)])]))
    await rig.stop()
  }
}
