import AccountDatabase
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// On Linux, Foundation's `NSNumber` of `1` or `0` casts to `Bool`, and a JSON `true`
/// casts to `NSNumber`: one rule (``JSONBoolean``) decides what is a JSON boolean
/// wherever the emulator reads one, so a number is never taken for a boolean (Firestore,
/// Identity Toolkit and NCMB answer 400 for it) nor a boolean for a number.
@Suite("Emulator: a JSON number is not a boolean, nor a boolean a number", .timeLimit(.minutes(1)))
struct JSONBooleanRuleTests {
  // MARK: Firestore

  struct FirestoreRig {
    let store: UserStore
    let handler: FirestoreHandler
    let uid: String

    init() throws {
      store = try makeStore()
      handler = FirestoreHandler(store: store, projectID: "demo-project")
      uid = try store.createUser(NewUser(email: "ann@example.com", password: "secret1")).id
    }

    var name: String { "projects/demo-project/databases/(default)/documents/users/" + uid }

    func send(_ method: HTTPMethod, _ path: String, _ body: String) async -> HTTPResponse {
      await handler.handle(
        HTTPRequest(
          method: method,
          url: URL(
            string: "http://127.0.0.1:8080/v1/projects/demo-project/databases/(default)/documents"
              + path)!,
          headerFields: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
          body: Data(body.utf8)))
    }

    func commit(exists: String) async -> HTTPResponse {
      await send(
        .post, ":commit",
        #"{"writes":[{"update":{"name":"\#(name)","fields":{"a":{"integerValue":"1"}}},"#
          + #""currentDocument":{"exists":\#(exists)}}]}"#)
    }
  }

  static func isInvalidArgument(_ response: HTTPResponse) -> Bool {
    response.status == 400
      && (response.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT"
  }

  @Test(arguments: ["1", "0"])
  func aCommitPreconditionOfANumberIsRefused(exists: String) async throws {
    let rig = try FirestoreRig()
    let response = await rig.commit(exists: exists)
    #expect(Self.isInvalidArgument(response), "\(response.json)")
    #expect(try rig.store.document(userID: rig.uid) == nil)
    // The booleans themselves still work.
    #expect(await rig.commit(exists: "false").status == 200)
    #expect(await rig.commit(exists: "true").status == 200)
  }

  @Test(arguments: [
    #"{"booleanValue":1}"#, #"{"booleanValue":0}"#, #"{"doubleValue":true}"#,
    #"{"integerValue":true}"#, #"{"integerValue":false}"#,
  ])
  func aValueOfTheOtherKindIsRefused(value: String) async throws {
    let rig = try FirestoreRig()
    let response = await rig.send(.patch, "/users/" + rig.uid, #"{"fields":{"f":\#(value)}}"#)
    #expect(Self.isInvalidArgument(response), "\(value): \(response.json)")
    #expect(try rig.store.document(userID: rig.uid) == nil)
  }

  @Test func booleanAndNumberValuesStillRoundTrip() async throws {
    let rig = try FirestoreRig()
    let response = await rig.send(
      .patch, "/users/" + rig.uid,
      #"{"fields":{"t":{"booleanValue":true},"d":{"doubleValue":1},"i":{"integerValue":1}}}"#)
    #expect(response.status == 200)
    let stored = try #require(try rig.store.document(userID: rig.uid))
    #expect(stored.fields == ["t": .bool(true), "d": .double(1), "i": .integer(1)])
  }

  // MARK: Firebase Auth

  @Test(arguments: [("signUp", "returnSecureToken"), ("update", "returnSecureToken")])
  func aFlagOfANumberIsRefused(operation: String, flag: String) async throws {
    let handler = FirebaseAuthHandler(store: try makeStore())
    let requests = FirebaseRequests()
    let created = await handler.handle(
      requests.accounts("signUp", ["email": "b@example.com", "password": "secret1"]))
    let idToken = try #require(created.json["idToken"] as? String)
    var body: [String: Any] = [flag: 1]
    if operation == "update" {
      body["idToken"] = idToken
      body["displayName"] = "Bea"
    } else {
      body["email"] = "c@example.com"
      body["password"] = "secret1"
    }
    let response = await handler.handle(requests.accounts(operation, body))
    #expect(response.status == 400)
    #expect(
      response.firebaseMessage
        == "Invalid JSON payload received. Invalid value at '\(flag)' (TYPE_BOOL).")
    body[flag] = true
    #expect(await handler.handle(requests.accounts(operation, body)).status == 200)
  }

  @Test func anAdminFlagOrCountOfTheOtherKindIsRefused() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let user = try store.createUser(NewUser(email: "d@example.com", password: "secret1"))
    func admin(_ name: String, _ body: [String: Any]) async -> HTTPResponse {
      await emulator.handle(
        HTTPRequest(
          method: .post,
          url: URL(
            string: "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:\(name)")!,
          headerFields: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
          body: jsonData(body)))
    }
    let disable = await admin("update", ["localId": user.id, "disableUser": 1])
    #expect(disable.status == 400, "\(disable.json)")
    #expect(try store.user(id: user.id)?.disabled == false)
    let query = await admin("query", ["returnUserInfo": 0])
    #expect(query.status == 400, "\(query.json)")
    let limit = await admin("query", ["limit": true])
    #expect(limit.status == 400, "\(limit.json)")
    #expect(await admin("update", ["localId": user.id, "disableUser": true]).status == 200)
    #expect(try store.user(id: user.id)?.disabled == true)
  }

  // MARK: NCMB

  @Test func anNCMBACLRightOfANumberIsRefusedAndNeverGrantsRead() async throws {
    let store = try makeStore()
    let handler = NCMBHandler(store: store)
    let requests = NCMBRequests()
    func signUp(_ name: String) async throws -> (id: String, token: String) {
      let answer = await handler.handle(
        requests.request(
          .post, "/2013-09-01/users", body: ["userName": name, "password": "secret1"]))
      return (
        try #require(answer.json["objectId"] as? String),
        try #require(answer.json["sessionToken"] as? String)
      )
    }
    let owner = try await signUp("owner")
    let other = try await signUp("other")
    let refused = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(owner.id)", body: ["acl": ["*": ["read": 1]]],
        sessionToken: owner.token))
    #expect(refused.status == 400)
    #expect(refused.ncmbCode == "E400002")
    // A stored ACL whose right is a number (an older version's, or a hand-edited file)
    // grants nothing.
    try store.setUserACL(userID: owner.id, json: #"{"*":{"read":1}}"#)
    let read = await handler.handle(
      requests.request(.get, "/2013-09-01/users/\(owner.id)", sessionToken: other.token))
    #expect(read.status == 404)
    #expect(read.ncmbCode == "E404001")
    try store.setUserACL(userID: owner.id, json: #"{"*":{"read":true}}"#)
    let allowed = await handler.handle(
      requests.request(.get, "/2013-09-01/users/\(owner.id)", sessionToken: other.token))
    #expect(allowed.status == 200)
  }
}
