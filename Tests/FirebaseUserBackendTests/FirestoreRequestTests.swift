import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// The exact requests of the Firestore document store (docs/wire/firestore-client.md).
@Suite("Firestore document store: requests", .timeLimit(.minutes(1)))
struct FirestoreRequestTests {
  /// The instant of a Firestore `timestampValue`, as the adapter reads it.
  private func wireTimestamp(_ text: String) throws -> Date {
    let value = try JSONDecoder().decode(
      FirestoreValue.self, from: Data(#"{"timestampValue":"\#(text)"}"#.utf8))
    guard case .timestamp(let date) = value.value else { throw CocoaError(.coderInvalidValue) }
    return date
  }

  private func bearer(_ request: HTTPRequest) -> String? {
    request.headerFields["Authorization"]
  }

  @Test("GET users/{uid} with the ID token; 404 NOT_FOUND is nil")
  func read() async throws {
    let stub = FirestoreStub()
    let backend = try stub.backend()
    stub.enqueue(404, FirestoreStub.error(404, "NOT_FOUND", "Document \\\"x\\\" not found."))
    let document = try await backend.userDocuments.document()
    #expect(document == nil)
    let request = try #require(stub.firestoreRequests.first)
    #expect(request.method == .get)
    #expect(request.url.absoluteString == FirestoreStub.documents + "/users/uid-1")
    let session = try #require(try await backend.state.session())
    #expect(Array(request.headerFields.map(\.name)) == ["Authorization"])
    #expect(bearer(request) == "Bearer " + session.bearerToken)
    #expect(request.body.isEmpty)
  }

  @Test("A read decodes fields and times")
  func readDecodes() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, FirestoreStub.documentJSON())
    let document = try #require(try await stub.backend().userDocuments.document())
    #expect(document.userID == "uid-1")
    #expect(document.fields == ["uid": .string("uid-1")])
    #expect(document.createTime == (try wireTimestamp("2026-01-01T00:00:00.000001Z")))
    #expect(document.updateTime == Date(timeIntervalSince1970: 1_767_225_601.5))
  }

  @Test("Another user's ID is sent as given and escaped in the path")
  func otherUser() async throws {
    let stub = FirestoreStub()
    stub.enqueue(
      403, FirestoreStub.error(403, "PERMISSION_DENIED", "Missing or insufficient permissions."))
    let store = try stub.backend().userDocuments
    let result = await outcome { () async throws(UserBackendError) in
      try await store.document(userID: "other user+1")
    }
    #expect(result.errorCode == .permissionDenied)
    #expect(
      stub.firestoreRequests.first?.url.absoluteString
        == FirestoreStub.documents + "/users/other%20user%2B1")
  }

  @Test("Create is one commit with exists=false and a REQUEST_TIME transform")
  func create() async throws {
    let stub = FirestoreStub()
    stub.enqueue(
      200,
      #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02.000003Z","transformResults":[{"timestampValue":"2026-01-01T00:00:02.000003Z"}]}],"commitTime":"2026-01-01T00:00:02.000003Z"}"#
    )
    let backend = try stub.backend()
    let user = User(id: "uid-1", email: "alice@example.com", providers: ["password"])
    let creation = try await backend.userDocuments.ensureDocument(for: user)
    #expect(creation.created)
    let stamp = try wireTimestamp("2026-01-01T00:00:02.000003Z")
    #expect(
      creation.document.fields == [
        "uid": .string("uid-1"), "email": .string("alice@example.com"),
        "display_name": .string("anonymous"), "create_date": .timestamp(stamp),
      ])
    #expect(creation.document.createTime == stamp)
    #expect(stub.firestoreRequests.count == 1)
    let request = try #require(stub.firestoreRequests.first)
    #expect(request.method == .post)
    #expect(request.url.absoluteString == FirestoreStub.documents + ":commit")
    #expect(Array(request.headerFields.map(\.name)) == ["Authorization", "Content-Type"])
    #expect(request.headerFields["Content-Type"] == "application/json")
    #expect(
      request.bodyText
        == #"{"writes":[{"currentDocument":{"exists":false},"update":{"fields":{"display_name":{"stringValue":"anonymous"},"email":{"stringValue":"alice@example.com"},"uid":{"stringValue":"uid-1"}},"name":"\#(FirestoreStub.name)"},"updateTransforms":[{"fieldPath":"create_date","setToServerValue":"REQUEST_TIME"}]}]}"#
    )
  }

  @Test("Create of an existing document reads it: created is false")
  func createExisting() async throws {
    let stub = FirestoreStub()
    stub.enqueue(409, FirestoreStub.error(409, "ALREADY_EXISTS", "Document already exists: x"))
    stub.enqueue(200, FirestoreStub.documentJSON())
    let creation = try await stub.backend().userDocuments.createDocument(
      userID: nil, fields: ["uid": .string("uid-1")])
    #expect(!creation.created)
    #expect(creation.document.fields == ["uid": .string("uid-1")])
    #expect(stub.firestoreRequests.map(\.method) == [.post, .get])
  }

  @Test("A commit answer without transform results is completed by a read")
  func createReadsBack() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}]}"#)
    stub.enqueue(200, FirestoreStub.documentJSON())
    let creation = try await stub.backend().userDocuments.createDocument(
      userID: nil, fields: ["t": .serverTimestamp])
    #expect(creation.created)
    #expect(stub.firestoreRequests.map(\.method) == [.post, .get])
  }

  @Test("Update: commit with the quoted updateMask and transforms, then a read")
  func update() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}]}"#)
    stub.enqueue(200, FirestoreStub.documentJSON())
    let document = try await stub.backend().userDocuments.updateDocument(
      setting: [
        "display_name": .string("Ada"), "a.b": .integer(1), "x`y": .bool(true),
        "seen": .serverTimestamp, "m": .map(["when": .serverTimestamp, "n": .null]),
      ],
      removing: ["old field", "back\\slash"])
    #expect(document.fields == ["uid": .string("uid-1")])
    let request = try #require(stub.firestoreRequests.first)
    #expect(request.url.absoluteString == FirestoreStub.documents + ":commit")
    #expect(
      request.bodyText
        == #"{"writes":[{"update":{"fields":{"a.b":{"integerValue":"1"},"display_name":{"stringValue":"Ada"},"m":{"mapValue":{"fields":{"n":{"nullValue":null}}}},"x`y":{"booleanValue":true}},"name":"\#(FirestoreStub.name)"},"updateMask":{"fieldPaths":["`a.b`","`back\\\\slash`","display_name","m","`old field`","`x\\`y`"]},"updateTransforms":[{"fieldPath":"m.when","setToServerValue":"REQUEST_TIME"},{"fieldPath":"seen","setToServerValue":"REQUEST_TIME"}]}]}"#
    )
    #expect(stub.firestoreRequests.last?.method == .get)
  }

  @Test("Delete sends DELETE; a missing document is fine")
  func delete() async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, "{}")
    stub.enqueue(404, FirestoreStub.error(404, "NOT_FOUND"))
    let backend = try stub.backend()
    try await backend.userDocuments.deleteDocument(userID: nil)
    try await backend.userDocuments.deleteDocument(userID: nil)
    #expect(stub.firestoreRequests.map(\.method) == [.delete, .delete])
    #expect(
      stub.firestoreRequests.first?.url.absoluteString == FirestoreStub.documents + "/users/uid-1")
    #expect(stub.firestoreRequests.first?.body.isEmpty == true)
  }

  @Test(
    "Emulator hosts: FIRESTORE_EMULATOR_HOST, else the Auth emulator's, else production",
    arguments: [
      (nil, nil, FirestoreStub.documents),
      (
        "127.0.0.1:9099", nil,
        "http://127.0.0.1:9099/v1/projects/demo-project/databases/(default)/documents"
      ),
      (
        "127.0.0.1:9099", "localhost:8080",
        "http://localhost:8080/v1/projects/demo-project/databases/(default)/documents"
      ),
      (
        nil, "127.0.0.1:8080",
        "http://127.0.0.1:8080/v1/projects/demo-project/databases/(default)/documents"
      ),
    ] as [(String?, String?, String)])
  func hosts(auth: String?, firestore: String?, base: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, FirestoreStub.documentJSON())
    let backend = try stub.backend(emulatorHost: auth, firestoreEmulatorHost: firestore)
    _ = try await backend.userDocuments.document()
    #expect(stub.firestoreRequests.first?.url.absoluteString == base + "/users/uid-1")
  }

  @Test("A malformed firestoreEmulatorHost is refused when the backend is made")
  func badHost() {
    #expect(throws: UserBackendError.self) {
      try FirestoreStub().backend(firestoreEmulatorHost: "http://127.0.0.1:8080")
    }
    let error = #expect(throws: UserBackendError.self) {
      try FirestoreStub().backend(firestoreEmulatorHost: "nohost")
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "firestoreEmulatorHost")
    #expect(reason.contains("host:port such as 127.0.0.1:9099"))
  }

  @Test("Without a project ID: every operation is misconfigured naming projectID, no request")
  func noProject() async throws {
    let stub = FirestoreStub()
    let backend = try stub.backend(projectID: nil)
    // Claimed either way: the missing setting is a configuration error, not a missing
    // feature (reported as unsupported, it sent users to another backend).
    #expect(backend.capabilities.contains(.userDocuments))
    let read = await outcome { () async throws(UserBackendError) in
      try await backend.userDocuments.document()
    }
    let delete = await outcome { () async throws(UserBackendError) in
      try await backend.userDocuments.deleteDocument(userID: nil)
    }
    for result in [read.errorCode, delete.errorCode] {
      guard case .misconfigured(let setting, _) = result else {
        Issue.record("expected misconfigured, got \(String(describing: result))")
        continue
      }
      #expect(setting == "projectID")
    }
    #expect(stub.transport.requests.isEmpty)
  }

  @Test("Signed out: notSignedIn, no request")
  func signedOut() async throws {
    let stub = FirestoreStub()
    let backend = try stub.backend(signedIn: false)
    let store = backend.userDocuments
    let results: [Result<Void, UserBackendError>] = [
      await outcome { () async throws(UserBackendError) in _ = try await store.document() },
      await outcome { () async throws(UserBackendError) in
        _ = try await store.createDocument(userID: nil, fields: [:])
      },
      await outcome { () async throws(UserBackendError) in
        _ = try await store.updateDocument(setting: ["a": .null])
      },
      await outcome { () async throws(UserBackendError) in
        try await store.deleteDocument(userID: nil)
      },
    ]
    #expect(results.map(\.errorCode) == Array(repeating: .notSignedIn, count: 4))
    #expect(stub.transport.requests.isEmpty)
  }

  @Test(
    "Bad input is refused before any request, naming the field",
    arguments: [
      (nil, ["__name__": DocumentValue.null], "fields.__name__"),
      (nil, ["m": .map(["__x__": .null])], "fields.m.__x__"),
      (
        nil, [String(repeating: "a", count: 1_501): .null],
        "fields." + String(repeating: "a", count: 32) + "…"
      ),
      (nil, ["a": .array([.serverTimestamp])], "fields.a[0]"),
      ("a/b", ["a": .null], "userID"),
      ("", ["a": .null], "userID"),
      ("..", ["a": .null], "userID"),
      ("__x__", ["a": .null], "userID"),
      // Per code point: "_" + U+0301 is one Character, but still "__…__" to Firestore.
      ("__\u{301}x__", ["a": .null], "userID"),
      (nil, ["__\u{301}x": .null], "fields.__\u{301}x"),
    ] as [(String?, [String: DocumentValue], String)])
  func badInput(userID: String?, fields: [String: DocumentValue], field: String) async throws {
    let stub = FirestoreStub()
    let store = try stub.backend().userDocuments
    let create = await outcome { () async throws(UserBackendError) in
      _ = try await store.createDocument(userID: userID, fields: fields)
    }
    let update = await outcome { () async throws(UserBackendError) in
      _ = try await store.updateDocument(userID: userID, setting: fields, removing: [])
    }
    for result in [create, update] {
      guard case .invalidInput(let named, _) = result.errorCode else {
        Issue.record("expected invalidInput, got \(String(describing: result.errorCode))")
        continue
      }
      #expect(named == field)
    }
    #expect(stub.transport.requests.isEmpty)
  }
}
