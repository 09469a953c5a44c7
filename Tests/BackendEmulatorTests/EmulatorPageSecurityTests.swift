import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing

/// The requests the page and the admin endpoints answer, each with the `Host` field
/// `host` (and `Origin` when given).
private func guardedRequests(host: String?, origin: String? = nil) -> [HTTPRequest] {
  let base = "http://127.0.0.1:9099"
  var requests = [
    HTTPRequest(method: .get, url: URL(string: base + "/")!, headerFields: ["Accept": "text/html"]),
    HTTPRequest(method: .get, url: URL(string: base + "/")!),
    HTTPRequest(method: .get, url: URL(string: base + "/ui/app.js")!),
    HTTPRequest(method: .get, url: URL(string: base + "/ui/app.css")!),
    HTTPRequest(
      method: .get, url: URL(string: base + "/emulator/v1/projects/demo-project/verificationCodes")!
    ),
    HTTPRequest(
      method: .get, url: URL(string: base + "/emulator/v1/projects/demo-project/oobCodes")!),
    HTTPRequest(
      method: .get, url: URL(string: base + "/emulator/v1/projects/demo-project/requests")!),
    HTTPRequest(
      method: .delete, url: URL(string: base + "/emulator/v1/projects/demo-project/accounts")!),
    HTTPRequest(
      method: .post,
      url: URL(
        string: base + "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:query")!,
      headerFields: ["Authorization": "Bearer owner"], body: Data("{}".utf8)),
    HTTPRequest(
      method: .post,
      url: URL(string: base + "/identitytoolkit.googleapis.com/v1/accounts:delete")!,
      headerFields: ["Authorization": "Bearer owner"], body: Data(#"{"localId":"x"}"#.utf8)),
  ]
  for index in requests.indices {
    if let host { requests[index].headerFields["Host"] = host }
    if let origin { requests[index].headerFields["Origin"] = origin }
  }
  return requests
}

@Suite("Emulator page: loopback only, no CORS", .timeLimit(.minutes(1)))
struct EmulatorPageSecurityTests {
  @Test(
    "loopback Host names and addresses are served",
    arguments: [
      "localhost", "localhost:9099", "LocalHost:1", "127.0.0.1", "127.0.0.1:9099",
      "127.255.0.1:80", "[::1]", "[::1]:9099", "[0:0:0:0:0:0:0:1]:9099",
      // IPv4-mapped loopback: what `baas emulator --host ::ffff:127.0.0.1` prints.
      "[::ffff:127.0.0.1]:9099", "dev.localhost:9099",
    ])
  func loopbackHosts(host: String) async throws {
    let emulator = BackendEmulator(store: try makeStore())
    for request in guardedRequests(host: host) {
      let response = await emulator.handle(request)
      #expect(response.status != 403, "\(request.method) \(request.rawPath) for Host \(host)")
    }
  }

  @Test(
    "any other Host is refused with 403 before any work, without CORS fields",
    arguments: [
      "attacker.example", "attacker.example:9099", "127.0.0.1.attacker.example",
      "localhost.attacker.example", "attacker.localhost.example:9099", "10.0.0.1:9099",
      "0.0.0.0:9099", "192.168.1.20", "[::2]:9099", "[::ffff:10.0.0.1]", "127.0.0.01",
      "127.0.0.1:", "127.0.0.1:99999a", "127.0.0.1:9099:1", "127.1", "",
      // Ports outside the one port rule (1…65535, no leading zeros).
      "localhost:99999", "localhost:065", "[::1]:0", "127.0.0.1:65536",
    ])
  func otherHosts(host: String) async throws {
    let store = try makeStore()
    let kept = try store.createUser(NewUser(email: "kept@example.com", password: "secret-12"))
    let emulator = BackendEmulator(store: store)
    for request in guardedRequests(host: host) {
      let response = await emulator.handle(request)
      #expect(response.status == 403, "\(request.method) \(request.rawPath) for Host \(host)")
      #expect(response.headerFields["Access-Control-Allow-Origin"] == nil)
      #expect(String(decoding: response.body, as: UTF8.self).contains("loopback"))
    }
    // The DELETE and accounts:delete did nothing.
    #expect(try store.user(id: kept.id) != nil)
  }

  @Test("a cross-origin request is refused even on a loopback Host")
  func crossOrigin() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    for origin in ["http://attacker.example", "https://127.0.0.1.attacker.example", "null"] {
      for request in guardedRequests(host: "127.0.0.1:9099", origin: origin) {
        let response = await emulator.handle(request)
        #expect(response.status == 403, "\(request.rawPath) from \(origin)")
        #expect(response.headerFields["Access-Control-Allow-Origin"] == nil)
      }
    }
    for origin in ["http://127.0.0.1:9099", "http://localhost:5173", "https://[::1]:8443"] {
      for request in guardedRequests(host: "127.0.0.1:9099", origin: origin) {
        #expect(await emulator.handle(request).status != 403, "\(request.rawPath) from \(origin)")
      }
    }
  }

  @Test("the page and admin answers carry no CORS fields; the protocols keep theirs")
  func noCORSOnGuarded() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    for request in guardedRequests(host: "127.0.0.1:9099") {
      let response = await emulator.handle(request)
      #expect(response.status != 403)
      let cors = response.headerFields.filter { $0.name.lowercased().hasPrefix("access-control-") }
      #expect(cors.isEmpty, "\(request.rawPath): \(cors)")
    }
    var preflight = HTTPRequest(
      method: .options,
      url: URL(string: "http://127.0.0.1:9099/emulator/v1/projects/demo-project/accounts")!)
    preflight.headerFields["Access-Control-Request-Method"] = "DELETE"
    let answer = await emulator.handle(preflight)
    #expect(
      answer.headerFields.filter { $0.name.lowercased().hasPrefix("access-control-") }.isEmpty)
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "a@example.com", "password": "secret-12"]))
    #expect(signUp.headerFields["Access-Control-Allow-Origin"] == "*")
  }

  @Test("the user-facing protocols still answer any Host (SDKs in containers, proxies)")
  func protocolsAnyHost() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    var request = FirebaseRequests().accounts(
      "signUp", ["email": "b@example.com", "password": "secret-12"])
    request.headerFields["Host"] = "emulator.internal:9099"
    #expect(await emulator.handle(request).status == 200)
  }

  @Test("over a socket: Host attacker.example gets 403 for the page and an admin endpoint")
  func overSocket() async throws {
    let store = try makeStore()
    _ = try store.createUser(NewUser(email: "kept@example.com", password: "secret-12"))
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { stopInBackground(server) }
    for head in [
      "GET / HTTP/1.1\r\nHost: attacker.example\r\nAccept: text/html\r\n",
      "GET /ui/app.js HTTP/1.1\r\nHost: attacker.example:\(port)\r\n",
      "DELETE /emulator/v1/projects/demo-project/accounts HTTP/1.1\r\nHost: attacker.example\r\n",
    ] {
      let response = try await rawExchange(port: port, head + "Connection: close\r\n\r\n")
      #expect(response.status == 403, "\(head)")
      #expect(response.headers["access-control-allow-origin"] == nil)
    }
    #expect(try store.userCount() == 1)
    let page = try await rawExchange(
      port: port,
      "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/html\r\nConnection: close\r\n\r\n")
    #expect(page.status == 200)
    #expect(page.headers["content-type"] == "text/html; charset=utf-8")
  }
}
