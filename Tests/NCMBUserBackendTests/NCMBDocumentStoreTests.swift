import BackendHTTP
import Foundation
import NCMBSigning
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// The NCMB document store: the user object's own fields (docs/wire/ncmb.md, "User fields
/// as the user's document").
@Suite("NCMB document store", .timeLimit(.minutes(1)))
struct NCMBDocumentStoreTests {
  static let objectURL = "https://mbaas.api.nifcloud.com/2013-09-01/users/\(Fixture.userID)"
  /// The marker written at the fixture clock's time.
  static let marker = #"{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}"#

  private func body(_ request: HTTPRequest) -> String {
    String(decoding: request.body, as: UTF8.self)
  }

  @Test("Read: GET users/{objectId} with the session token; no field and no marker is nil")
  func readAbsent() async throws {
    let server = NCMBObjectServer()
    let document = try await server.backend().userDocuments.document()
    #expect(document == nil)
    let request = try #require(server.requests.first)
    #expect(request.method == .get)
    #expect(request.url.absoluteString == Self.objectURL)
    #expect(request.headerFields[NCMBSignature.Header.sessionToken] == Fixture.sessionToken)
    #expect(request.body.isEmpty)
    #expect(try NCMBSignature.validate(request: request, clientKey: Fixture.clientKey) == ())
  }

  @Test(
    "Create: read, one PUT with the fields, the marker, a nonce and the owner-only ACL, read back")
  func create() async throws {
    let server = NCMBObjectServer()
    let backend = try server.backend()
    let user = User(id: Fixture.userID, email: "alice@example.com", providers: ["password"])
    let creation = try await backend.userDocuments.ensureDocument(for: user)
    #expect(creation.created)
    #expect(server.requests.map(\.method) == [.get, .put, .get])
    let put = server.requests[1]
    #expect(put.url.absoluteString == Self.objectURL)
    #expect(put.headerFields[NCMBSignature.Header.sessionToken] == Fixture.sessionToken)
    #expect(put.headerFields["Content-Type"] == "application/json")
    let text = body(put)
    let nonce = try #require(
      (try JSONSerialization.jsonObject(with: put.body) as? [String: Any])?["documentCreateNonce"]
        as? String)
    #expect(
      text
        == #"{"acl":{"\#(Fixture.userID)":{"read":true,"write":true}},"create_date":\#(Self.marker),"display_name":"anonymous","documentCreateDate":\#(Self.marker),"documentCreateNonce":"\#(nonce)","email":"alice@example.com","uid":"\#(Fixture.userID)"}"#
    )
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    #expect(
      creation.document.fields == [
        "uid": .string(Fixture.userID), "email": .string("alice@example.com"),
        "display_name": .string("anonymous"), "create_date": .timestamp(now),
      ])
    #expect(creation.document.createTime == now)
    #expect(creation.document.updateTime == Date(timeIntervalSince1970: 1_767_225_605))
  }

  @Test("Create of an existing document reads it only: created is false")
  func createExisting() async throws {
    let server = NCMBObjectServer()
    server.set(Fixture.userID, "documentCreateDate", json: Self.marker)
    server.set(Fixture.userID, "uid", json: #""u""#)
    let creation = try await server.backend().userDocuments.createDocument(
      userID: nil, fields: ["uid": .string("other")])
    #expect(!creation.created)
    #expect(creation.document.fields == ["uid": .string("u")])
    #expect(server.requests.map(\.method) == [.get])
  }

  @Test("Another device's write after ours: its nonce is stored, so created is false")
  func lostRace() async throws {
    let server = NCMBObjectServer(afterWrite: { server, _ in
      server.set(Fixture.userID, "documentCreateNonce", json: #""the-other-device""#)
    })
    let creation = try await server.backend().userDocuments.createDocument(
      userID: nil, fields: ["a": .integer(1)])
    #expect(!creation.created)
    #expect(creation.document.fields == ["a": .integer(1)])
  }

  @Test("Concurrent creates in one process: exactly one answers created")
  func concurrentCreates() async throws {
    let server = NCMBObjectServer()
    let first = try server.backend()
    let second = try server.backend()
    async let a = first.userDocuments.createDocument(userID: nil, fields: ["n": .integer(1)])
    async let b = second.userDocuments.createDocument(userID: nil, fields: ["n": .integer(2)])
    let results = try await [a, b]
    #expect(results.filter(\.created).count == 1)
    #expect(results[0].document.fields == results[1].document.fields)
    #expect(server.requests.filter { $0.method == .put }.count == 1)
  }

  @Test("Update of a missing document writes the marker and ACL; removing sends Delete")
  func updateCreates() async throws {
    let server = NCMBObjectServer()
    let document = try await server.backend().userDocuments.updateDocument(
      setting: ["d": .double(2.5), "seen": .serverTimestamp], removing: ["gone"])
    #expect(server.requests.map(\.method) == [.get, .put, .get])
    #expect(
      body(server.requests[1])
        == #"{"acl":{"\#(Fixture.userID)":{"read":true,"write":true}},"d":2.5,"documentCreateDate":\#(Self.marker),"gone":{"__op":"Delete"},"seen":\#(Self.marker)}"#
    )
    #expect(
      document.fields == [
        "d": .double(2.5), "seen": .timestamp(Date(timeIntervalSince1970: 1_767_225_600)),
      ])
  }

  @Test("Update of an existing document sends only the changes")
  func updateExisting() async throws {
    let server = NCMBObjectServer()
    server.set(Fixture.userID, "documentCreateDate", json: Self.marker)
    server.set(Fixture.userID, "keep", json: "true")
    let document = try await server.backend().userDocuments.updateDocument(
      setting: ["n": .integer(-9_223_372_036_854_775_808)], removing: [])
    #expect(body(server.requests[1]) == #"{"n":-9223372036854775808}"#)
    #expect(document.fields == ["keep": .bool(true), "n": .integer(.min)])
  }

  @Test("Delete removes every custom field and both markers; a missing document sends nothing")
  func delete() async throws {
    let server = NCMBObjectServer()
    let backend = try server.backend()
    try await backend.userDocuments.deleteDocument(userID: nil)
    #expect(server.requests.map(\.method) == [.get])
    _ = try await backend.userDocuments.createDocument(userID: nil, fields: ["a": .string("x")])
    try await backend.userDocuments.deleteDocument(userID: nil)
    #expect(
      body(server.requests.last!)
        == #"{"a":{"__op":"Delete"},"documentCreateDate":{"__op":"Delete"},"documentCreateNonce":{"__op":"Delete"}}"#
    )
    #expect(try await backend.userDocuments.document() == nil)
  }

  @Test(
    "Reserved and unstorable fields are refused before any request",
    arguments: [
      "objectId", "createDate", "updateDate", "acl", "authData", "sessionToken",
      "mailAddressConfirm", "userName", "mailAddress", "password", "_id", "documentCreateDate",
      "documentCreateNonce",
    ])
  func reserved(name: String) async throws {
    let server = NCMBObjectServer()
    let store = try server.backend().userDocuments
    let results: [Result<Void, UserBackendError>] = [
      await documentOutcome { () async throws(UserBackendError) in
        _ = try await store.createDocument(userID: nil, fields: [name: .string("x")])
      },
      await documentOutcome { () async throws(UserBackendError) in
        _ = try await store.updateDocument(userID: nil, setting: [name: .string("x")], removing: [])
      },
      await documentOutcome { () async throws(UserBackendError) in
        _ = try await store.updateDocument(userID: nil, setting: [:], removing: [name])
      },
    ]
    for result in results {
      guard case .invalidInput(let field, _) = result.errorCode else {
        Issue.record("expected invalidInput, got \(String(describing: result.errorCode))")
        continue
      }
      #expect(field == "fields." + name)
    }
    #expect(server.requests.isEmpty)
  }

  @Test(
    "Values NCMB cannot hold are refused before any request, naming the value's path",
    arguments: [
      (["x": DocumentValue.double(.nan)], "fields.x"), (["x": .double(.infinity)], "fields.x"),
      (["x": .map(["__type": .string("Date")])], "fields.x.__type"),
      (["x": .array([.map(["__op": .null])])], "fields.x[0].__op"),
      (["x": .array([.serverTimestamp])], "fields.x[0]"),
    ])
  func unstorable(fields: [String: DocumentValue], path: String) async throws {
    let server = NCMBObjectServer()
    let store = try server.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      _ = try await store.createDocument(userID: nil, fields: fields)
    }
    guard case .invalidInput(let field, _) = result.errorCode else {
      Issue.record("expected invalidInput, got \(String(describing: result.errorCode))")
      return
    }
    #expect(field == path)
    #expect(server.requests.isEmpty)
  }

  @Test(
    "Another user's object: the server's E403001 and E404001 are permissionDenied; the session stays"
  )
  func otherUser() async throws {
    let server = NCMBObjectServer(hook: { request, _ in
      guard request.url.lastPathComponent == "someoneElse" else { return nil }
      return request.method == .get
        ? NCMBObjectServer.json(404, #"{"code":"E404001","error":"No data available."}"#)
        : NCMBObjectServer.json(403, #"{"code":"E403001","error":"No access with ACL."}"#)
    })
    let store = Fixture.signedInStore()
    let backend = try server.backend(store: store)
    let documents = backend.userDocuments
    let results: [Result<Void, UserBackendError>] = [
      await documentOutcome { () async throws(UserBackendError) in
        _ = try await documents.document(userID: "someoneElse")
      },
      await documentOutcome { () async throws(UserBackendError) in
        _ = try await documents.updateDocument(
          userID: "someoneElse", setting: ["a": .null], removing: [])
      },
      await documentOutcome { () async throws(UserBackendError) in
        try await documents.deleteDocument(userID: "someoneElse")
      },
    ]
    #expect(results.map(\.errorCode) == Array(repeating: .permissionDenied, count: 3))
    #expect(try await backend.currentUser() != nil)
    #expect(server.requests.allSatisfy { $0.url.lastPathComponent == "someoneElse" })
  }

  @Test("Another user's object the server lets through is still permissionDenied")
  func otherUserReadable() async throws {
    let server = NCMBObjectServer()
    server.seed(
      "someoneElse", json: #"{"objectId":"someoneElse","documentCreateDate":\#(Self.marker)}"#)
    let store = try server.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.document(userID: "someoneElse")
    }
    #expect(result.errorCode == .permissionDenied)
  }

  @Test("Own object: E404001 and E401001 reject the session, which is cleared")
  func sessionRejected() async throws {
    for code in ["E404001", "E401001"] {
      let status = Int(code.dropFirst().prefix(3)) ?? 400
      let server = NCMBObjectServer(hook: { _, _ in
        NCMBObjectServer.json(status, #"{"code":"\#(code)","error":"x"}"#)
      })
      let backend = try server.backend()
      let store = backend.userDocuments
      let result = await documentOutcome { () async throws(UserBackendError) in
        try await store.document()
      }
      #expect(result.errorCode == .sessionExpired, "\(code)")
      #expect(try await backend.currentUser() == nil, "\(code)")
    }
  }

  @Test("Signed out: notSignedIn, no request")
  func signedOut() async throws {
    let server = NCMBObjectServer()
    let store = try server.backend(store: InMemorySessionStore()).userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.document()
    }
    #expect(result.errorCode == .notSignedIn)
    #expect(server.requests.isEmpty)
  }

  @Test(
    "Malformed answers are malformedResponse",
    arguments: [
      "not json", "[1]", #"{"documentCreateDate":"yesterday"}"#,
      #"{"documentCreateDate":{"__type":"Date","iso":"soon"}}"#,
      #"{"documentCreateDate":\#(marker),"a":{"__type":"Date"}}"#,
    ])
  func malformed(body: String) async throws {
    let server = NCMBObjectServer(hook: { _, _ in NCMBObjectServer.json(200, body) })
    let store = try server.backend().userDocuments
    let result = await documentOutcome { () async throws(UserBackendError) in
      try await store.document()
    }
    guard case .malformedResponse = result.errorCode else {
      Issue.record("expected malformedResponse, got \(String(describing: result.errorCode))")
      return
    }
  }
}
