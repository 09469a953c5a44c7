import AccountDatabase
import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this machine can listen on `::1` (some containers have no IPv6 loopback): binds
/// a socket there and closes it.
enum IPv6Loopback {
  static let isAvailable: Bool = {
    #if canImport(Glibc)
      let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET6, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { _ = close(fd) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
      }
    }
  }()
}

/// The adapters with the default transport (`NetworkTransport.standard()`: libcurl on
/// Linux) against an emulator listening on `::1`, configured with IPv6 literals
/// (`[::1]:PORT`, `http://[::1]:PORT`): the settings are accepted and the requests arrive.
/// Timeouts are 120 s, a hang guard for a loaded machine, as the emulator harnesses'.
@Suite(
  "Adapters reach an emulator on ::1 with the default transport", .timeLimit(.minutes(2)),
  .enabled(if: IPv6Loopback.isAvailable, "no IPv6 loopback: cannot listen on ::1"))
struct AdapterIPv6EndToEndTests {
  private func withIPv6Emulator(
    _ body: (_ port: Int, _ store: UserStore, _ clock: ManualClock) async throws -> Void
  ) async throws {
    let clock = ManualClock(Date())
    let store = try makeStore(clock: clock)
    let server = EmulatorServer(
      emulator: BackendEmulator(store: store, projectID: "demo-ipv6"), host: "::1", port: 0)
    let port = try server.start()
    do {
      try await body(port, store, clock)
    } catch {
      await stopOffPool(server)
      throw error
    }
    await stopOffPool(server)
  }

  @Test("FirebaseUserBackend with emulatorHost [::1]:PORT: sign-up, sign-in, token, sign-out")
  func firebase() async throws {
    try await withIPv6Emulator { port, store, clock in
      let configuration = FirebaseConfiguration(
        apiKey: "demo-api-key", projectID: "demo-ipv6", emulatorHost: "[::1]:\(port)")
      try await runCoreScenario(credential: .email("v6@example.com", password: "secret1")) {
        try FirebaseUserBackend(
          configuration: configuration, transport: NetworkTransport.standard(defaultTimeout: 120),
          sessionStore: InMemorySessionStore(), clock: clock)
      }
      #expect(try store.userCount() == 1)
    }
  }

  @Test("NCMBUserBackend with baseURL http://[::1]:PORT: signed requests and answers")
  func ncmb() async throws {
    try await withIPv6Emulator { port, store, clock in
      let configuration = NCMBConfiguration(
        applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey,
        baseURL: try #require(URL(string: "http://[::1]:\(port)")),
        validatesResponseSignature: true, requestTimeout: 120)
      try await runCoreScenario(credential: .username("v6-user", password: "secret1")) {
        try NCMBUserBackend(
          configuration: configuration, transport: NetworkTransport.standard(defaultTimeout: 120),
          sessionStore: InMemorySessionStore(), clock: clock)
      }
      #expect(try store.userCount() == 1)
    }
  }
}
