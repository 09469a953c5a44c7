import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing

/// The request line over a real socket: an absolute-form target's authority replaces the
/// `Host` field (RFC 9112 §3.2.2), so the loopback guard judges the host the request is
/// really for; method names are case-sensitive (RFC 9110 §9.1), so `get` is not `GET`.
@Suite("HTTP request line: absolute-form targets and method case", .timeLimit(.minutes(2)))
struct RequestTargetAndMethodTests {
  static let codes = "/emulator/v1/projects/demo-project/oobCodes"

  /// Runs `body` against a socket emulator holding one account.
  func withEmulator(_ body: (Int, UserStore) async throws -> Void) async throws {
    let store = try makeStore()
    _ = try store.createUser(NewUser(email: "kept@example.com", password: "secret-12"))
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    do {
      try await body(port, store)
      await stopOffPool(server)
    } catch {
      await stopOffPool(server)
      throw error
    }
  }

  @Test("an absolute-form target for another host is refused like that Host (403)")
  func absoluteFormForeignHost() async throws {
    try await withEmulator { port, store in
      for head in [
        "GET http://evil.com\(Self.codes) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n",
        "GET HTTP://evil.com:\(port)/ HTTP/1.1\r\nHost: localhost\r\n",
        "GET http://evil.com/ui/app.js HTTP/1.0\r\n",
        "DELETE http://evil.com/emulator/v1/projects/demo-project/accounts HTTP/1.1\r\n"
          + "Host: 127.0.0.1\r\n",
      ] {
        let response = try await rawExchange(port: port, head + "Connection: close\r\n\r\n")
        #expect(response.status == 403, "\(head)")
      }
      #expect(try store.userCount() == 1)
    }
  }

  @Test("an absolute-form target on loopback is served whatever the Host field says")
  func absoluteFormLoopback() async throws {
    try await withEmulator { port, _ in
      let response = try await rawExchange(
        port: port,
        "GET http://127.0.0.1:\(port)\(Self.codes) HTTP/1.1\r\nHost: evil.com\r\n"
          + "Connection: close\r\n\r\n")
      #expect(response.status == 200)
      #expect(response.json["oobCodes"] != nil)
    }
  }

  @Test(
    "an absolute-form target with user info or a bad authority is a 400",
    arguments: [
      "http://evil.com@127.0.0.1/", "http://127.0.0.1:80x/", "http:///",
    ])
  func absoluteFormMalformed(target: String) async throws {
    try await withEmulator { port, _ in
      let response = try await rawExchange(
        port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(response.status == 400, "\(target)")
    }
  }

  @Test(
    "a method in another letter case, or one not served, is 501 and does nothing",
    arguments: [
      "get / HTTP/1.1", "Get \(codes) HTTP/1.1",
      "delete /emulator/v1/projects/demo-project/accounts HTTP/1.1",
      "post /identitytoolkit.googleapis.com/v1/accounts:signUp?key=k HTTP/1.1",
      "BREW / HTTP/1.1", "TRACE / HTTP/1.1",
    ])
  func methodCase(line: String) async throws {
    try await withEmulator { port, store in
      let response = try await rawExchange(
        port: port, line + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(response.status == 501, "\(line)")
      #expect(try store.userCount() == 1)
    }
  }

  @Test("the served methods in upper case still answer")
  func upperCaseServed() async throws {
    try await withEmulator { port, _ in
      let ready = try await rawExchange(
        port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(ready.status == 200)
      let codes = try await rawExchange(
        port: port,
        "GET \(Self.codes) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(codes.status == 200)
    }
  }
}
