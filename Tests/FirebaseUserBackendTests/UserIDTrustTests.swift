import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// User IDs: a sign-in answer's `localId` must be a Firebase uid (1–128 characters, any
/// text: the Admin SDK and custom tokens set uids such as `org/42`), else
/// `.malformedResponse` with nothing stored; a document call's user ID must also be one
/// Firestore document ID, else `.invalidInput(field: "userID")` before any request.
@Suite("Firebase: unusable user IDs", .timeLimit(.minutes(1)))
struct UserIDTrustTests {
  /// Not a Firebase uid.
  static let unusable = ["", String(repeating: "u", count: 129)]

  /// Firebase uids that no Firestore document ID or URL path segment can carry unchanged.
  static let notDocumentIDs = [
    "", ".", "..", "a/../x?y#z", "org/42", "a\\b", "a\u{0}b", "a\nb", "a\u{7F}b", "a\u{85}b",
    String(repeating: "u", count: 129),
  ]

  static let flows = ForeignTokenTests.SignIn.allCases

  /// A sign-in answer for `localId` through `flow`, on a fresh backend.
  static func signIn(_ flow: ForeignTokenTests.SignIn, localId: String) async throws
    -> (Result<Void, any Error>, InMemorySessionStore)
  {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(uid: localId, exp: clock.now().addingTimeInterval(3600))
    let quoted = String(decoding: try JSONEncoder().encode(localId), as: UTF8.self)
    let body = """
      {"localId":\(quoted),"email":"alice@example.com","idToken":"\(token)",\
      "refreshToken":"AMf-refresh","expiresIn":"3600","isNewUser":true}
      """
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(StubTransport(json: body), store: store, clock: clock)
    do {
      try await ForeignTokenTests.run(flow, on: backend)
      return (.success(()), store)
    } catch {
      return (.failure(error), store)
    }
  }

  @Test(
    "any uid Firebase allows signs in, even one no document call can use",
    arguments: flows, ["org/42", "user%40corp", "a?b#c", ".", "a\\b", "名前", "a\u{0}b"])
  func legitimateUIDsSignIn(_ flow: ForeignTokenTests.SignIn, localId: String) async throws {
    let (result, store) = try await Self.signIn(flow, localId: localId)
    if case .failure(let error) = result { Issue.record("\(localId): \(error)") }
    #expect(try await store.load().session?.user.id == localId)
  }

  @Test(
    "a sign-in answering an unusable localId is malformedResponse; nothing is stored",
    arguments: flows, unusable)
  func signIn(_ flow: ForeignTokenTests.SignIn, localId: String) async throws {
    let (result, store) = try await Self.signIn(flow, localId: localId)
    if case .failure(let error as UserBackendError) = result, case .malformedResponse = error.code {
    } else {
      Issue.record("expected malformedResponse, got \(result)")
    }
    #expect(try await store.load().session == nil)
  }

  /// The three document calls.
  static func call(_ operation: String, _ store: any UserDocumentStore, userID: String?)
    async -> Result<Void, UserBackendError>
  {
    await outcome { () async throws(UserBackendError) in
      switch operation {
      case "get": _ = try await store.document(userID: userID)
      case "create": _ = try await store.createDocument(userID: userID, fields: ["a": .null])
      case "set":
        _ = try await store.updateDocument(userID: userID, setting: ["a": .null], removing: [])
      default: try await store.deleteDocument(userID: userID)
      }
    }
  }

  static let operations = ["get", "create", "set", "delete"]

  @Test(
    "a document call for an unusable userID is invalidInput(userID) before any request",
    arguments: operations, notDocumentIDs)
  func documentInput(_ operation: String, userID: String) async throws {
    let stub = FirestoreStub()
    let result = await Self.call(operation, try stub.backend().userDocuments, userID: userID)
    guard case .invalidInput(let field, _) = result.errorCode else {
      Issue.record("expected invalidInput, got \(String(describing: result.errorCode))")
      return
    }
    #expect(field == "userID")
    #expect(stub.transport.requests.isEmpty)
  }

  @Test(
    "a stored session whose user ID is unusable sends no document request",
    arguments: operations)
  func storedUserID(_ operation: String) async throws {
    let clock = ManualClock(Fixture.start)
    var session = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
    session.user.id = "a/../x?y#z"
    let transport = StubTransport(json: "{}")
    let backend = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: "demo-project"),
      transport: transport,
      sessionStore: InMemorySessionStore(PersistedAuthState(session: session)),
      clock: clock)
    let result = await Self.call(operation, backend.userDocuments, userID: nil)
    guard case .invalidInput(let field, _) = result.errorCode else {
      Issue.record("expected invalidInput, got \(String(describing: result.errorCode))")
      return
    }
    #expect(field == "userID")
    #expect(transport.count == 0)
  }

  @Test(
    "the commit's document name and the read URL address the same document",
    arguments: ["uid-1", "ü ser+1", "Ab~._-9", "名前", "user%40corp", "a?b#c"])
  func sameDocument(_ userID: String) async throws {
    let stub = FirestoreStub()
    stub.enqueue(200, #"{"writeResults":[{}],"commitTime":"2026-01-01T00:00:02Z"}"#)
    stub.enqueue(200, FirestoreStub.documentJSON())
    let store = try stub.backend().userDocuments
    _ = await outcome { () async throws(UserBackendError) in
      _ = try await store.updateDocument(userID: userID, setting: ["a": .null], removing: [])
    }
    let requests = stub.firestoreRequests
    try #require(requests.count == 2)
    let commit = try #require(
      try JSONSerialization.jsonObject(with: requests[0].body) as? [String: Any])
    let writes = try #require(commit["writes"] as? [[String: Any]])
    let name = try #require((writes.first?["update"] as? [String: Any])?["name"] as? String)
    let path = try #require(
      URLComponents(url: requests[1].url, resolvingAgainstBaseURL: false)?.path)
    #expect(name == "projects/demo-project/databases/(default)/documents/users/" + userID)
    #expect(path == "/v1/" + name)
  }
}
