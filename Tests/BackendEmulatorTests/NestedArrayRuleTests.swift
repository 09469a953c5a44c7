import AccountDatabase
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// Attack round 6, M3: an array directly inside an array was stored by every backend and
/// by the emulator, while production Firestore refuses it ("Cannot convert an array value
/// in an array value"). One rule now refuses it everywhere, naming the element, before any
/// request; an array inside a map inside an array stays allowed.
@Suite("An array directly inside an array is refused everywhere", .timeLimit(.minutes(2)))
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

  @Test func theNCMBEmulatorRefusesItToo() async throws {
    let store = try makeStore()
    let handler = NCMBHandler(store: store)
    let requests = NCMBRequests()
    let signUp = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": "ann", "password": "secret1"]))
    let id = try #require(signUp.json["objectId"] as? String)
    let token = try #require(signUp.json["sessionToken"] as? String)
    for body: [String: Any] in [["n": [[1, 2]]], ["m": ["n": [1, [2]]]]] {
      let answer = await handler.handle(
        requests.request(.put, "/2013-09-01/users/\(id)", body: body, sessionToken: token))
      #expect(answer.status == 400, "\(body)")
      #expect(answer.json["code"] as? String == "E400002", "\(body)")
    }
    #expect(try store.document(userID: id) == nil)
  }
}
