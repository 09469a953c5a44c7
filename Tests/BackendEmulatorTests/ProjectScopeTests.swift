import AccountDatabase
import BackendHTTP
import Foundation
import Testing

@testable import BackendEmulator

/// The emulator holds one project's data: every path that names a project (Firestore
/// documents, admin account calls, the emulator-only endpoints) answers only for the
/// project it was started with; any other project ID is a 404 naming the configured one,
/// before anything is read or changed. So one test's `DELETE …/projects/X/accounts` cannot
/// wipe another project's accounts, and a token of one project never reads a document
/// through another project's path.
@Suite("Emulator: project-scoped paths answer only the configured project", .timeLimit(.minutes(1)))
struct ProjectScopeTests {
  let base = "http://127.0.0.1:9099"

  func request(
    _ method: HTTPMethod, _ path: String, token: String? = nil, body: [String: Any]? = nil
  ) -> HTTPRequest {
    var fields: HTTPFields = ["Content-Type": "application/json"]
    if let token { fields["Authorization"] = "Bearer \(token)" }
    return HTTPRequest(
      method: method, url: URL(string: base + path)!, headerFields: fields,
      body: body.map(jsonData) ?? Data())
  }

  /// An emulator for `demo-project` with one signed-up user who has a document.
  func setUp() async throws -> (BackendEmulator, uid: String, token: String) {
    let emulator = BackendEmulator(store: try makeStore(), projectID: "demo-project")
    let signUp = await emulator.handle(
      FirebaseRequests().accounts(
        "signUp", ["email": "p@example.com", "password": "secret-12", "returnSecureToken": true]))
    let uid = try #require(signUp.json["localId"] as? String)
    let token = try #require(signUp.json["idToken"] as? String)
    let write = await emulator.handle(
      request(
        .patch, "/v1/projects/demo-project/databases/(default)/documents/users/\(uid)",
        token: token, body: ["fields": ["a": ["integerValue": "1"]]]))
    #expect(write.status == 200)
    return (emulator, uid, token)
  }

  func expectRefused(_ response: HTTPResponse, _ what: String) {
    #expect(response.status == 404, "\(what)")
    let text = String(decoding: response.body, as: UTF8.self)
    #expect(text.contains("demo-project"), "\(what): \(text)")
  }

  @Test("Firestore paths of another project or database are 404, the document untouched")
  func firestoreOtherProject() async throws {
    let (emulator, uid, token) = try await setUp()
    for (method, path) in [
      (HTTPMethod.get, "/v1/projects/zzzzzz-x/databases/(default)/documents/users/\(uid)"),
      (
        .get,
        "/firestore.googleapis.com/v1/projects/other/databases/(default)/documents/users/\(uid)"
      ),
      (.delete, "/v1/projects/zzzzzz-x/databases/(default)/documents/users/\(uid)"),
      (.get, "/v1/projects/demo-project/databases/other-db/documents/users/\(uid)"),
    ] {
      expectRefused(await emulator.handle(request(method, path, token: token)), path)
      expectRefused(await emulator.handle(request(method, path, token: "owner")), "owner \(path)")
    }
    let patch = await emulator.handle(
      request(
        .patch, "/v1/projects/zzzzzz-x/databases/(default)/documents/users/\(uid)", token: token,
        body: ["fields": ["a": ["integerValue": "2"]]]))
    expectRefused(patch, "patch")
    let own = await emulator.handle(
      request(
        .get, "/v1/projects/demo-project/databases/(default)/documents/users/\(uid)", token: token))
    #expect(own.status == 200)
    let fields = own.json["fields"] as? [String: Any]
    #expect((fields?["a"] as? [String: Any])?["integerValue"] as? String == "1")
  }

  @Test(
    "emulator-only endpoints of another project are 404 and change nothing",
    arguments: ["accounts", "oobCodes", "verificationCodes", "requests"])
  func emulatorEndpointsOtherProject(resource: String) async throws {
    let (emulator, _, _) = try await setUp()
    for method in [HTTPMethod.get, .delete] {
      let response = await emulator.handle(
        request(method, "/emulator/v1/projects/zzzzzz-other/\(resource)"))
      expectRefused(response, "\(method) \(resource)")
    }
    #expect(try emulator.store.userCount() == 1)
    let own = await emulator.handle(request(.delete, "/emulator/v1/projects/demo-project/accounts"))
    #expect(own.status == 200)
    #expect(try emulator.store.userCount() == 0)
  }

  @Test("admin account calls of another project are 404; the own project's still answer")
  func adminOtherProject() async throws {
    let (emulator, uid, _) = try await setUp()
    for host in ["/identitytoolkit.googleapis.com", ""] {
      let query = await emulator.handle(
        request(.post, "\(host)/v1/projects/zzzzzz-other/accounts:query", token: "owner", body: [:])
      )
      if host.isEmpty {
        #expect(query.status == 404)
      } else {
        expectRefused(query, "query")
      }
    }
    let delete = await emulator.handle(
      request(
        .post, "/identitytoolkit.googleapis.com/v1/projects/zzzzzz-other/accounts:delete",
        token: "owner", body: ["localId": uid]))
    expectRefused(delete, "delete")
    #expect(try emulator.store.userCount() == 1)
    let own = await emulator.handle(
      request(
        .post, "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:query",
        token: "owner", body: [:]))
    #expect(own.json["recordsCount"] as? String == "1")
  }

  @Test("the handlers used on their own refuse another project too")
  func handlersDirectly() async throws {
    let store = try makeStore()
    let auth = FirebaseAuthHandler(store: store, projectID: "demo-project")
    expectRefused(
      await auth.handle(request(.get, "/emulator/v1/projects/zzzzzz-other/oobCodes")), "auth")
    let firestore = FirestoreHandler(store: store, projectID: "demo-project")
    expectRefused(
      await firestore.handle(
        request(.get, "/v1/projects/zzzzzz-other/databases/(default)/documents/users/u")),
      "firestore")
  }
}
