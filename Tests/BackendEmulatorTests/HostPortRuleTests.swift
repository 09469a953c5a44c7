import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing

/// The emulator reads the port of a `Host` field, an absolute-form target and an `Origin`
/// by the package's one port rule (``URLLoaderSupport/portNumber(_:)``: 1…65535 without
/// leading zeros): `localhost:99999`, `localhost:065` and `localhost:` are a `400`, not a
/// loopback host to serve.
@Suite("Emulator: Host and target ports under the one port rule", .timeLimit(.minutes(2)))
struct HostPortRuleTests {
  static let badPorts = ["99999", "065", "", "0", "65536", "+80", "8a"]

  func withEmulator(_ body: (Int) async throws -> Void) async throws {
    let store = try makeStore()
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    do {
      try await body(port)
      await stopOffPool(server)
    } catch {
      await stopOffPool(server)
      throw error
    }
  }

  @Test("a Host field with a bad port is a 400", arguments: badPorts)
  func hostField(port badPort: String) async throws {
    try await withEmulator { port in
      for host in ["localhost:\(badPort)", "127.0.0.1:\(badPort)", "[::1]:\(badPort)"] {
        let response = try await rawExchange(
          port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        #expect(response.status == 400, "Host: \(host)")
      }
    }
  }

  @Test("an absolute-form target with a bad port is a 400", arguments: badPorts)
  func absoluteForm(port badPort: String) async throws {
    try await withEmulator { port in
      let response = try await rawExchange(
        port: port,
        "GET http://127.0.0.1:\(badPort)/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(response.status == 400, "port \(badPort)")
    }
  }

  @Test("a Host field with a usable port is served")
  func goodPort() async throws {
    try await withEmulator { port in
      for host in ["localhost:\(port)", "127.0.0.1:65535", "[::1]:1", "localhost"] {
        let response = try await rawExchange(
          port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        #expect(response.status == 200, "Host: \(host)")
      }
    }
  }

  @Test("an Origin with a bad port is not loopback (the page refuses it)")
  func origin() async throws {
    try await withEmulator { port in
      let response = try await rawExchange(
        port: port,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://localhost:065\r\n"
          + "Connection: close\r\n\r\n")
      #expect(response.status == 403)
    }
  }
}
