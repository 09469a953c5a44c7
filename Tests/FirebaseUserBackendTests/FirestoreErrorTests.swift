import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Error answers of Firestore, the one retry on 401, malformed answers.
@Suite("Firestore document store: errors", .timeLimit(.minutes(1)))
struct FirestoreErrorTests {
  /// Every operation, each one request to the failing answer.
  static let operations: [String] = ["get", "create", "update", "delete"]

  private func run(_ operation: String, _ store: any UserDocumentStore) async -> Result<
    Void, UserBackendError
  > {
    await outcome { () async throws(UserBackendError) in
      switch operation {
      case "get": _ = try await store.document(userID: nil)
      case "create": _ = try await store.createDocument(userID: nil, fields: ["a": .null])
      case "update": _ = try await store.updateDocument(setting: ["a": .null])
      default: try await store.deleteDocument(userID: nil)
      }
    }
  }

  @Test("Each status maps to its portable error on every operation", arguments: operations)
  func mapping(operation: String) async throws {
    let cases: [(Int, String, HTTPFields, UserBackendError.Code)] = [
      (403, FirestoreStub.error(403, "PERMISSION_DENIED"), [:], .permissionDenied),
      (
        429, FirestoreStub.error(429, "RESOURCE_EXHAUSTED"), ["Retry-After": "7"],
        .rateLimited(retryAfter: 7)
      ),
      (429, "Too many", [:], .rateLimited(retryAfter: nil)),
      (
        400, FirestoreStub.error(400, "RESOURCE_EXHAUSTED", "quota"), [:],
        .rateLimited(retryAfter: nil)
      ),
      (
        400, FirestoreStub.error(400, "INVALID_ARGUMENT", "bad"), [:],
        .invalidInput(field: "fields", reason: "bad")
      ),
      (
        400,
        FirestoreStub.error(400, "INVALID_ARGUMENT", "Invalid value at 'fields.n' (doubleValue)"),
        [:], .invalidInput(field: "fields.n", reason: "Invalid value at 'fields.n' (doubleValue)")
      ),
      (
        409, FirestoreStub.error(409, "ABORTED", "contention"), [:],
        .server(status: 409, code: "ABORTED", message: "contention")
      ),
      (
        503, FirestoreStub.error(503, "UNAVAILABLE", "later"), [:],
        .server(status: 503, code: "UNAVAILABLE", message: "later")
      ),
      (502, "<html>bad gateway</html>", [:], .server(status: 502, code: nil, message: nil)),
      (
        404,
        FirestoreStub.error(
          404, "NOT_FOUND", "The database (default) does not exist for project demo-project"),
        [:],
        .misconfigured(
          setting: "projectID", reason: "the project has no Firestore database (default)")
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Cloud Firestore API has not been used in project 1 before or it is disabled.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVICE_DISABLED"}]}}"#,
        [:],
        .misconfigured(
          setting: "projectID", reason: "the Cloud Firestore API is not enabled for this project")
      ),
    ]
    for (status, body, headers, expected) in cases {
      let stub = FirestoreStub()
      stub.enqueue(status, body, headers: headers)
      let result = await run(operation, try stub.backend().userDocuments)
      #expect(result.errorCode == expected, "\(operation) \(status) \(body)")
    }
  }

  @Test("backendCode is the status name", arguments: operations)
  func backendCode(operation: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(
      403, FirestoreStub.error(403, "PERMISSION_DENIED", "Missing or insufficient permissions."))
    guard case .failure(let error) = await run(operation, try stub.backend().userDocuments) else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.backendCode == "PERMISSION_DENIED")
    #expect(error.message == "Missing or insufficient permissions.")
  }

  @Test(
    "A 404 that is not a Google error is malformed, not a missing document", arguments: operations)
  func notFoundHTML(operation: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(404, "<html>Not Found</html>")
    let result = await run(operation, try stub.backend().userDocuments)
    guard case .malformedResponse = result.errorCode else {
      Issue.record(
        "\(operation): expected malformedResponse, got \(String(describing: result.errorCode))")
      return
    }
  }

  @Test("401 forces one refresh and one retry with the new token", arguments: operations)
  func retry(operation: String) async throws {
    let stub = FirestoreStub()
    let backend = try stub.backend()
    let before = try #require(try await backend.state.session()).bearerToken
    stub.enqueue(401, FirestoreStub.error(401, "UNAUTHENTICATED"))
    switch operation {
    case "get": stub.enqueue(200, FirestoreStub.documentJSON())
    case "create":
      stub.enqueue(
        200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z","transformResults":[]}]}"#)
    case "update":
      stub.enqueue(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}]}"#)
      stub.enqueue(200, FirestoreStub.documentJSON())
    default: stub.enqueue(200, "{}")
    }
    let result = await run(operation, backend.userDocuments)
    #expect(result.errorCode == nil)
    let after = try #require(try await backend.state.session()).bearerToken
    #expect(after != before)
    let requests = stub.transport.requests
    #expect(requests.filter { $0.url.host == "securetoken.googleapis.com" }.count == 1)
    let firestore = stub.firestoreRequests
    #expect(firestore.first?.headerFields["Authorization"] == "Bearer " + before)
    #expect(firestore.dropFirst().first?.headerFields["Authorization"] == "Bearer " + after)
    #expect(firestore.first?.body == firestore.dropFirst().first?.body)
  }

  @Test("A second 401 is a server error; the session is kept; no token in the error")
  func secondUnauthenticated() async throws {
    let stub = FirestoreStub()
    let backend = try stub.backend()
    stub.enqueue(401, FirestoreStub.error(401, "UNAUTHENTICATED"))
    stub.enqueue(401, FirestoreStub.error(401, "UNAUTHENTICATED"))
    let result = await run("get", backend.userDocuments)
    guard case .failure(let error) = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .server(status: 401, code: "UNAUTHENTICATED", message: nil))
    #expect(error.backendCode == "UNAUTHENTICATED")
    #expect(stub.firestoreRequests.count == 2)
    let session = try #require(try await backend.state.session())
    #expect(!error.description.contains(session.bearerToken))
    #expect(!error.description.contains(Fixture.refreshToken))
  }

  @Test("A rejected refresh is sessionExpired and clears the session")
  func refreshRejected() async throws {
    let clock = ManualClock(Fixture.start)
    let transport = StubTransport { request in
      if request.url.host == "securetoken.googleapis.com" {
        return StubTransport.json(400, Fixture.errorBody("TOKEN_EXPIRED"))
      }
      return StubTransport.json(401, FirestoreStub.error(401, "UNAUTHENTICATED"))
    }
    let backend = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: "demo-project"),
      transport: transport, sessionStore: Fixture.signedInStore(clock: clock), clock: clock)
    let result = await run("get", backend.userDocuments)
    #expect(result.errorCode == .sessionExpired)
    #expect(try await backend.state.session() == nil)
  }

  @Test(
    "Malformed success answers are malformedResponse",
    arguments: [
      ("get", "not json"),
      ("get", #"{"fields":{"a":{"integerValue":"12x"}}}"#),
      ("get", #"{"fields":{"a":{"integerValue":"9223372036854775808"}}}"#),
      ("get", #"{"fields":{"a":{"timestampValue":"yesterday"}}}"#),
      ("get", #"{"fields":{"a":{"futureValue":1}}}"#),
      ("get", #"{"fields":{"a":{}}}"#),
      ("get", #"{"fields":{"a":{"stringValue":"x","integerValue":"1"}}}"#),
      ("get", #"{"fields":{"a":{"mapValue":{"fields":{"b":{"booleanValue":"yes"}}}}}}"#),
      ("get", #"{"fields":{},"createTime":"soon"}"#),
      ("get", #"[1,2]"#),
      ("create", "not json"),
      ("create", #"{"writeResults":[{"updateTime":"then","transformResults":[]}]}"#),
    ])
  func malformed(operation: String, body: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, body)
    let result = await run(operation, try stub.backend().userDocuments)
    guard case .malformedResponse = result.errorCode else {
      Issue.record("expected malformedResponse, got \(String(describing: result.errorCode))")
      return
    }
  }

  @Test("A transport failure is network and never quotes the token")
  func network() async throws {
    let clock = ManualClock(Fixture.start)
    let transport = StubTransport { _ in throw URLError(.notConnectedToInternet) }
    let backend = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: "demo-project"),
      transport: transport, sessionStore: Fixture.signedInStore(clock: clock), clock: clock)
    let result = await run("get", backend.userDocuments)
    guard case .network = result.errorCode else {
      Issue.record("expected network, got \(String(describing: result.errorCode))")
      return
    }
    #expect(try await backend.state.session() != nil)
  }
}
