import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing

private func get(_ path: String, accept: String? = nil) -> HTTPRequest {
  var request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:9099" + path)!)
  request.headerFields["Host"] = "127.0.0.1:9099"
  if let accept { request.headerFields["Accept"] = accept }
  return request
}

private func admin(_ operation: String, _ body: [String: Any]) -> HTTPRequest {
  HTTPRequest(
    method: .post,
    url: URL(
      string:
        "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:"
        + operation)!,
    headerFields: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
    body: jsonData(body))
}

@Suite("Emulator page: assets, request log, admin calls", .timeLimit(.minutes(1)))
struct EmulatorPageTests {
  @Test(
    "the page and its assets are served with their content types and the CSP",
    arguments: [
      ("/", "text/html; charset=utf-8"), ("/ui/", "text/html; charset=utf-8"),
      ("/ui/index.html", "text/html; charset=utf-8"), ("/ui/app.css", "text/css; charset=utf-8"),
      ("/ui/app.js", "text/javascript; charset=utf-8"),
    ])
  func assets(path: String, type: String) async throws {
    let emulator = BackendEmulator(store: try makeStore())
    let response = await emulator.handle(get(path, accept: "text/html,*/*;q=0.8"))
    #expect(response.status == 200)
    #expect(response.headerFields["Content-Type"] == type)
    #expect(response.headerFields["X-Content-Type-Options"] == "nosniff")
    let policy = try #require(response.headerFields["Content-Security-Policy"])
    #expect(policy.contains("default-src 'self'"))
    #expect(policy.contains("script-src 'self'"))
    #expect(!policy.contains("unsafe-inline"))
    #expect(!response.body.isEmpty)
  }

  @Test("GET / without text/html keeps the Auth Emulator's readiness answer; unknown assets 404")
  func readinessAndMissing() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    let ready = await emulator.handle(get("/"))
    #expect(ready.status == 200)
    #expect((ready.json["authEmulator"] as? [String: Any])?["ready"] as? Bool == true)
    #expect(await emulator.handle(get("/ui/nothing.js")).status == 404)
    var post = get("/ui/app.js")
    post.method = .post
    #expect(await emulator.handle(post).status == 405)
  }

  @Test("the page has no inline script, no inline handler and no inline style")
  func noInlineScript() async throws {
    let emulator = BackendEmulator(store: try makeStore(), projectID: "demo-project")
    let html = String(
      decoding: await emulator.handle(get("/", accept: "text/html")).body, as: UTF8.self)
    let scripts = try Regex(#"<script([^>]*)>([^<]*)</script>"#)
    let found = html.matches(of: scripts)
    #expect(found.count == 1)
    for match in found {
      #expect(String(match.output[1].substring ?? "").contains(#"src="/ui/app.js""#))
      let content = String(match.output[2].substring ?? "")
      #expect(content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
    #expect(html.matches(of: try Regex("<script")).count == 1)
    #expect(html.firstMatch(of: try Regex(#"\son[a-z]+\s*="#).ignoresCase()) == nil)
    #expect(!html.contains("<style") && !html.contains("style=") && !html.contains("javascript:"))
    #expect(html.contains(#"<meta name="baas-project-id" content="demo-project">"#))
    let script = String(decoding: await emulator.handle(get("/ui/app.js")).body, as: UTF8.self)
    #expect(!script.contains("innerHTML") && !script.contains("insertAdjacentHTML"))
    #expect(!script.contains("eval(") && !script.contains("document.write"))
  }

  @Test("the project ID is HTML-escaped into the page")
  func projectIDEscaped() async throws {
    let emulator = BackendEmulator(store: try makeStore(), projectID: #"a"><script>x</script>"#)
    let html = String(
      decoding: await emulator.handle(get("/", accept: "text/html")).body, as: UTF8.self)
    #expect(html.contains("content=\"a&quot;&gt;&lt;script&gt;x&lt;/script&gt;\""))
    #expect(html.matches(of: try Regex("<script")).count == 1)
  }

  @Test("the request log keeps the newest entries up to its capacity")
  func ringBound() {
    let log = EmulatorRequestLog(capacity: 3)
    for index in 1...7 {
      log.record(
        get("/r\(index)"), status: 200, duration: .milliseconds(index), wireProtocol: .firebase)
    }
    #expect(log.entries.map(\.path) == ["/r7", "/r6", "/r5"])
    #expect(log.entries.map(\.sequence) == [7, 6, 5])
    log.removeAll()
    #expect(log.entries.isEmpty)
    log.record(get("/r8"), status: 201, duration: .zero, wireProtocol: .ncmb)
    #expect(log.entries.map(\.sequence) == [8])
  }

  @Test("the emulator logs at most 200 requests, skips the page's polls, labels protocols")
  func emulatorLog() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    for _ in 0..<205 { _ = await emulator.handle(get("/nothing")) }
    #expect(emulator.requestLog.entries.count == 200)
    emulator.requestLog.removeAll()
    var poll = get("/emulator/v1/projects/demo-project/verificationCodes")
    poll.headerFields["X-Emulator-UI-Poll"] = "1"
    _ = await emulator.handle(poll)
    _ = await emulator.handle(admin("query", [:]))
    _ = await emulator.handle(get("/2013-09-01/users"))
    _ = await emulator.handle(
      get("/v1/projects/demo-project/databases/(default)/documents/users/u"))
    _ = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "a@example.com", "password": "secret-12"]))
    let listed = await emulator.handle(get("/emulator/v1/projects/demo-project/requests"))
    let entries = try #require(listed.json["requests"] as? [[String: Any]])
    #expect(
      entries.compactMap { $0["protocol"] as? String } == [
        "firebase", "firestore", "ncmb", "admin",
      ])
    #expect(entries.first?["status"] as? Int == 200)
    #expect(entries.first?["method"] as? String == "POST")
    #expect(entries.allSatisfy { $0["durationMs"] is Double && $0["time"] is String })
  }

  @Test("no secret sent in a query, header or body reaches the request log")
  func redaction() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let secrets = [
      "APIKEY-s3cr3t", "IDTOKEN-s3cr3t", "OOBCODE-s3cr3t", "SMS-123456", "REFRESH-s3cr3t",
      "PASSWORD-s3cr3t", "SESSION-s3cr3t",
    ]
    let query =
      "key=\(secrets[0])&idToken=\(secrets[1])&oobCode=\(secrets[2])&code=\(secrets[3])"
      + "&refresh_token=\(secrets[4])&plain"
    var request = HTTPRequest(
      method: .post,
      url: URL(
        string:
          "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?\(query)")!,
      headerFields: [
        "Authorization": "Bearer \(secrets[6])", "X-NCMB-Apps-Session-Token": secrets[6],
        "Content-Type": "application/json",
      ],
      body: jsonData(["email": "a@example.com", "password": secrets[5]]))
    request.headerFields["Host"] = "127.0.0.1:9099"
    _ = await emulator.handle(request)
    let listed = await emulator.handle(get("/emulator/v1/projects/demo-project/requests"))
    let text = String(decoding: listed.body, as: UTF8.self)
    #expect(text.contains("accounts:signUp?key=<redacted>&idToken=<redacted>&oobCode=<redacted>"))
    #expect(text.contains("&<redacted>"))  // a bare item: it could be a secret
    for secret in secrets { #expect(!text.contains(secret), "\(secret) leaked") }
  }

  @Test("accounts:query lists every account with its protocol; update and delete act")
  func adminAccounts() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let web = try store.createUser(NewUser(email: "web@example.com", password: "secret-12"))
    let ncmb = try store.createUser(NewUser(username: "<b>nc</b>", password: "secret-12"))
    let listed = await emulator.handle(admin("query", ["sortBy": "CREATED_AT"]))
    #expect(listed.status == 200)
    #expect(listed.json["recordsCount"] as? String == "2")
    let users = try #require(listed.json["userInfo"] as? [[String: Any]])
    let byID = Dictionary(uniqueKeysWithValues: users.map { ($0["localId"] as? String ?? "", $0) })
    #expect(byID[web.id]?["createdBy"] as? String == "firebase")
    #expect(byID[web.id]?["email"] as? String == "web@example.com")
    #expect(byID[ncmb.id]?["createdBy"] as? String == "ncmb")
    #expect(byID[ncmb.id]?["userName"] as? String == "<b>nc</b>")
    #expect(byID[ncmb.id]?["providers"] as? [String] == ["password"])
    let count = await emulator.handle(admin("query", ["returnUserInfo": false]))
    #expect(count.json["recordsCount"] as? String == "2" && count.json["userInfo"] == nil)

    let disabled = await emulator.handle(admin("update", ["localId": web.id, "disableUser": true]))
    #expect(disabled.json["disabled"] as? Bool == true)
    let signIn = await emulator.handle(
      FirebaseRequests().accounts(
        "signInWithPassword", ["email": "web@example.com", "password": "secret-12"]))
    #expect(signIn.firebaseMessage == "USER_DISABLED")
    _ = await emulator.handle(admin("update", ["localId": web.id, "disableUser": false]))
    #expect(try store.user(id: web.id)?.disabled == false)

    #expect(await emulator.handle(admin("delete", ["localId": web.id])).status == 200)
    #expect(try store.user(id: web.id) == nil)
    let gone = await emulator.handle(admin("lookup", ["localId": [web.id, ncmb.id]]))
    #expect((gone.json["users"] as? [[String: Any]])?.count == 1)
    #expect(
      await emulator.handle(admin("delete", ["localId": web.id])).firebaseMessage
        == "USER_NOT_FOUND")
    #expect(await emulator.handle(admin("update", [:])).firebaseMessage == "MISSING_LOCAL_ID")
    #expect(
      await emulator.handle(admin("update", ["localId": ncmb.id, "email": "x@example.com"])).status
        == 501)
    #expect(await emulator.handle(admin("query", ["limit": 0])).status == 400)
    // Counts as strings are plain decimal digits: no sign, no other script's digits.
    for limit in ["+5", "٥", "0x5", "5.0", " 5"] {
      #expect(await emulator.handle(admin("query", ["limit": limit])).status == 400, "\(limit)")
    }
    #expect(await emulator.handle(admin("query", ["limit": "5"])).status == 200)
  }

  @Test("without Bearer owner, accounts:query is not an admin call")
  func queryNeedsAdmin() async throws {
    let store = try makeStore()
    _ = try store.createUser(NewUser(email: "web@example.com", password: "secret-12"))
    var request = admin("query", [:])
    request.headerFields["Authorization"] = "Bearer someone"
    let response = await BackendEmulator(store: store).handle(request)
    #expect(response.status == 404)
    #expect(response.json["userInfo"] == nil)
  }
}
