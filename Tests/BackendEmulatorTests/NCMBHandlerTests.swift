import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import NCMBSigning
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite("NCMBHandler: signature and user endpoints", .timeLimit(.minutes(2)))
struct NCMBHandlerTests {
  let store: UserStore
  let handler: NCMBHandler
  let requests = NCMBRequests()

  init() throws {
    store = try makeStore()
    handler = NCMBHandler(store: store)
  }

  func signUp(_ userName: String = "alice", _ password: String = "secret1") async
    -> HTTPResponse
  {
    await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": userName, "password": password]))
  }

  @Test("sign-up answers 201 with objectId, sessionToken, createDate; a duplicate is E409001")
  func signUpAndDuplicate() async throws {
    let created = await signUp()
    #expect(created.status == 201)
    let body = created.json
    #expect(body["userName"] as? String == "alice")
    #expect(body["authData"] is NSNull)
    #expect((body["sessionToken"] as? String)?.isEmpty == false)
    let objectID = try #require(body["objectId"] as? String)
    #expect(try store.user(id: objectID)?.username == "alice")
    let createDate = try #require(body["createDate"] as? String)
    #expect(createDate == NCMBSignature.timestamp(Date(timeIntervalSince1970: 1_767_225_600)))
    let duplicate = await signUp()
    #expect(duplicate.status == 409)
    #expect(duplicate.ncmbCode == "E409001")
    #expect(duplicate.json["error"] as? String == "userName is duplication.")
  }

  @Test("login by POST JSON and by GET query; a wrong password is 401 E401002")
  func login() async throws {
    let created = await signUp("bob smith", "p@ss!word")
    let post = await handler.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "bob smith", "password": "p@ss!word"]))
    #expect(post.status == 200)
    #expect(post.json["objectId"] as? String == created.json["objectId"] as? String)
    #expect(post.json["sessionToken"] as? String != created.json["sessionToken"] as? String)
    #expect(post.json["password"] == nil)
    let get = await handler.handle(
      requests.request(.get, "/2013-09-01/login?password=p%40ss%21word&userName=bob%20smith"))
    #expect(get.status == 200)
    let wrong = await handler.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "bob smith", "password": "x"]))
    #expect(wrong.status == 401)
    #expect(wrong.ncmbCode == "E401002")
    let unknown = await handler.handle(
      requests.request(.post, "/2013-09-01/login", body: ["userName": "nobody", "password": "x"]))
    #expect(unknown.ncmbCode == "E401002")
  }

  @Test("a signature made with another client key is 403 E403002 and changes nothing")
  func wrongSignature() async throws {
    var forged = requests
    forged.clientKey = String(repeating: "0", count: 64)
    let response = await handler.handle(
      forged.request(.post, "/2013-09-01/users", body: ["userName": "eve", "password": "secret1"]))
    #expect(response.status == 403)
    #expect(response.ncmbCode == "E403002")
    #expect(response.json["error"] as? String == "Unauthorized operations for signature.")
    #expect(try store.userCount() == 0)
  }

  @Test(
    "the path is accepted with or without a trailing slash, whichever was signed",
    arguments: [
      ("/2013-09-01/users/", "/2013-09-01/users"),
      ("/2013-09-01/users", "/2013-09-01/users/"),
      ("/2013-09-01/users/", "/2013-09-01/users/"),
    ])
  func trailingSlash(sent: String, signed: String) async throws {
    let response = await handler.handle(
      requests.request(
        .post, sent, body: ["userName": "carol", "password": "secret1"], signedPath: signed))
    #expect(response.status == 201)
  }

  @Test(
    "the signature may be over the request's host or the canonical FQDN, nothing else",
    arguments: [
      (nil, 201), ("127.0.0.1", 201), ("mbaas.api.nifcloud.com", 201),
      ("127.0.0.1:9099", 403), ("example.com", 403),
    ] as [(String?, Int)])
  func signedHost(fqdn: String?, status: Int) async throws {
    var signer = requests
    signer.signedFQDN = fqdn
    let response = await handler.handle(
      signer.request(.post, "/2013-09-01/users", body: ["userName": "dave", "password": "secret1"]))
    #expect(response.status == status)
  }

  @Test(
    "answers carry a response signature for the host the client signed",
    arguments: [nil, "mbaas.api.nifcloud.com"] as [String?])
  func responseSignature(fqdn: String?) async throws {
    var signer = requests
    signer.signedFQDN = fqdn
    let request = signer.request(
      .post, "/2013-09-01/users", body: ["userName": "sig", "password": "secret1"])
    let created = await handler.handle(request)
    #expect(created.headerFields["X-NCMB-Response-Signature"] != nil)
    #expect(
      NCMBSignature.verifyResponse(
        created, to: request, clientKey: NCMBDemoKeys.clientKey, fqdn: fqdn) == true)
    let duplicate = await handler.handle(request)
    #expect(duplicate.ncmbCode == "E409001")
    #expect(
      NCMBSignature.verifyResponse(
        duplicate, to: request, clientKey: NCMBDemoKeys.clientKey, fqdn: fqdn) == true)
  }

  @Test("a GET query is signed exactly as received (raw, not re-encoded)")
  func rawQuerySigned() async throws {
    _ = await signUp("q:user", "secret1")
    // ncmb_swift leaves ':' raw; the signature covers the raw query bytes.
    let response = await handler.handle(
      requests.request(.get, "/2013-09-01/login?userName=q:user&password=secret1"))
    #expect(response.status == 200)
  }

  @Test(
    "missing headers are 401 E401001; another application key is 404 E404005",
    arguments: ["X-NCMB-Application-Key", "X-NCMB-Timestamp", "X-NCMB-Signature"])
  func missingHeader(name: String) async throws {
    var request = requests.request(.get, "/2013-09-01/users/x")
    request.headerFields.remove(name)
    let response = await handler.handle(request)
    #expect(response.status == 401)
    #expect(response.ncmbCode == "E401001")
    var otherApp = requests
    otherApp.applicationKey = String(repeating: "a", count: 64)
    let unknown = await handler.handle(otherApp.request(.get, "/2013-09-01/users/x"))
    #expect(unknown.status == 404)
    #expect(unknown.ncmbCode == "E404005")
  }

  @Test(
    "timestamps in the variants real SDKs send are accepted (signed as sent)",
    arguments: [
      "2013-12-02T02:44:35.452Z", "2015-05-06T12:56:13Z", "2013-12-02T02%3A44%3A35.452Z",
      "2015-05-06T12:56:13.123456", "2020-01-01T09:00:00.000+09:00",
    ])
  func timestampVariants(timestamp: String) async throws {
    var signer = requests
    signer.timestamp = timestamp
    let response = await handler.handle(
      signer.request(.post, "/2013-09-01/users", body: ["userName": "t", "password": "secret1"]))
    #expect(response.status == 201)
  }

  @Test(
    "a timestamp that is not ISO 8601 is 401 E401001",
    arguments: ["yesterday", "2013-13-02T02:44:35Z", ""])
  func badTimestamp(timestamp: String) async throws {
    var signer = requests
    signer.timestamp = timestamp
    let response = await handler.handle(signer.request(.get, "/2013-09-01/users/x"))
    #expect(response.ncmbCode == "E401001")
  }

  @Test("only the session owner may update or delete; logout revokes the session token")
  func ownership() async throws {
    let alice = await signUp("alice")
    let bob = await signUp("bob")
    let aliceID = try #require(alice.json["objectId"] as? String)
    let aliceToken = try #require(alice.json["sessionToken"] as? String)
    let bobToken = try #require(bob.json["sessionToken"] as? String)
    let path = "/2013-09-01/users/\(aliceID)"
    let fetched = await handler.handle(requests.request(.get, path, sessionToken: aliceToken))
    #expect(fetched.json["sessionToken"] as? String == aliceToken)
    #expect(fetched.json["userName"] as? String == "alice")
    let byOther = await handler.handle(requests.request(.get, path, sessionToken: bobToken))
    #expect(byOther.status == 200)
    #expect(byOther.json["sessionToken"] == nil)
    for request in [
      requests.request(.put, path, body: ["password": "hijacked"], sessionToken: bobToken),
      requests.request(.delete, path, sessionToken: bobToken),
      requests.request(.delete, path),
    ] {
      let denied = await handler.handle(request)
      #expect(denied.status == 403)
      #expect(denied.ncmbCode == "E403001")
    }
    let changed = await handler.handle(
      requests.request(.put, path, body: ["password": "changed1"], sessionToken: aliceToken))
    #expect(changed.status == 200)
    #expect(try store.verifyPassword("changed1", userID: aliceID))
    let logout = await handler.handle(
      requests.request(.get, "/2013-09-01/logout", sessionToken: aliceToken))
    #expect(logout.status == 200)
    let stale = await handler.handle(requests.request(.get, path, sessionToken: aliceToken))
    #expect(stale.status == 401)
    #expect(stale.ncmbCode == "E401001")
    let login = await handler.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "alice", "password": "changed1"]))
    let newToken = try #require(login.json["sessionToken"] as? String)
    let deleted = await handler.handle(requests.request(.delete, path, sessionToken: newToken))
    #expect(deleted.status == 200)
    let gone = await handler.handle(requests.request(.get, path))
    #expect(gone.status == 404)
    #expect(gone.ncmbCode == "E404001")
  }

  @Test("authData: anonymous 201 then 200; apple checks the token's sub; others E403005")
  func authData() async throws {
    let anonymous: [String: Any] = ["authData": ["anonymous": ["id": "uuid-1"]]]
    let first = await handler.handle(requests.request(.post, "/2013-09-01/users", body: anonymous))
    #expect(first.status == 201)
    #expect(
      ((first.json["authData"] as? [String: Any])?["anonymous"] as? [String: Any])?["id"]
        as? String == "uuid-1")
    #expect((first.json["userName"] as? String)?.count == 10)
    let again = await handler.handle(requests.request(.post, "/2013-09-01/users", body: anonymous))
    #expect(again.status == 200)
    #expect(again.json["objectId"] as? String == first.json["objectId"] as? String)
    let token = testIDPToken(sub: "apple-1", nonce: nil)
    let apple = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: ["authData": ["apple": ["id": "apple-1", "access_token": token, "client_id": "c"]]]))
    #expect(apple.status == 201)
    let mismatch = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: ["authData": ["apple": ["id": "apple-2", "access_token": token]]]))
    #expect(mismatch.status == 401)
    #expect(mismatch.ncmbCode == "E401003")
    let facebook = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["authData": ["facebook": ["id": "f"]]]))
    #expect(facebook.ncmbCode == "E403005")
    #expect(try store.userCount() == 2)
  }

  @Test("requestPasswordReset records the address; missing or malformed are E4000xx")
  func passwordReset() async throws {
    let ok = await handler.handle(
      requests.request(.post, "/2013-09-01/requestPasswordReset", body: ["mailAddress": "A@b.c"]))
    #expect(ok.status == 201)
    #expect(ok.json["createDate"] is String)
    #expect(try store.passwordResetRequests().map(\.email) == ["a@b.c"])
    let missing = await handler.handle(
      requests.request(.post, "/2013-09-01/requestPasswordReset", body: [:]))
    #expect(missing.ncmbCode == "E400006")
    let empty = await handler.handle(
      requests.request(.post, "/2013-09-01/requestPasswordReset", body: ["mailAddress": ""]))
    #expect(empty.ncmbCode == "E400004")
  }

  @Test("input errors: empty password E400003, bad JSON E400001, unknown path E404002")
  func inputErrors() async throws {
    let noPassword = await handler.handle(
      requests.request(.post, "/2013-09-01/users", body: ["userName": "x"]))
    #expect(noPassword.ncmbCode == "E400003")
    #expect(noPassword.json["error"] as? String == "password is empty.")
    var badJSON = requests.request(.post, "/2013-09-01/users")
    badJSON.body = Data("{oops".utf8)
    #expect(await handler.handle(badJSON).ncmbCode == "E400001")
    let unknown = await handler.handle(requests.request(.get, "/2013-09-01/classes/Foo"))
    #expect(unknown.ncmbCode == "E404002")
  }

  @Test("the owner may rename (a taken name is E409001) but not send sessionToken (E403005)")
  func renamesAndRefusedUpdates() async throws {
    _ = await signUp("grace")
    let created = await signUp("frank")
    let id = try #require(created.json["objectId"] as? String)
    let token = try #require(created.json["sessionToken"] as? String)
    let taken = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["userName": "grace"], sessionToken: token))
    #expect(taken.ncmbCode == "E409001")
    #expect(try store.user(id: id)?.username == "frank")
    let rename = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["userName": "francis"], sessionToken: token))
    #expect(rename.status == 200)
    #expect(try store.user(id: id)?.username == "francis")
    let withToken = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["sessionToken": token], sessionToken: token))
    #expect(withToken.ncmbCode == "E403005")
    #expect(try store.user(id: id)?.username == "francis")
  }

  @Test("a guest given a userName and a password becomes a password account, same objectId")
  func guestUpgrade() async throws {
    var anonymous = requests.request(.post, "/2013-09-01/users")
    anonymous.body = Data(
      #"{"authData":{"anonymous":{"id":"3d1f0f3c-0000-4000-8000-000000000001"}}}"#.utf8)
    let created = await handler.handle(anonymous)
    let id = try #require(created.json["objectId"] as? String)
    let token = try #require(created.json["sessionToken"] as? String)
    let noPassword = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["userName": "guest-1"], sessionToken: token))
    #expect(noPassword.ncmbCode == "E400003")
    let upgrade = await handler.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)",
        body: ["userName": "guest-1", "password": "correct-horse-7"], sessionToken: token))
    #expect(upgrade.status == 200)
    let user = try #require(try store.user(id: id))
    #expect(user.username == "guest-1" && !user.isAnonymous)
    #expect(try store.verifyPassword("correct-horse-7", userID: id))
  }

}
