import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this machine can listen on `::1` (some containers have no IPv6 loopback): binds
/// a socket there and closes it.
private let ipv6LoopbackAvailable: Bool = {
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

@Suite(
  "baas emulator --host ::1: the printed IPv6 exports work with baas", .timeLimit(.minutes(10)),
  .enabled(if: ipv6LoopbackAvailable, "no IPv6 loopback: cannot listen on ::1"))
struct EmulatorIPv6Tests {
  @Test(
    "signup and signin through the banner's exports ([::1]:PORT)",
    arguments: [
      ("firebase", "::1"), ("ncmb", "[::1]"),
      // A long spelling is printed short: libcurl sends [::1], and NCMB signs the host.
      ("ncmb", "0:0:0:0:0:0:0:1"),
    ])
  func exportsWork(backend: String, host: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home, host: host)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    #expect(
      emulator.banner.contains("ready on http://[::1]:\(emulator.port)"), "\(emulator.banner)")
    func exported(_ name: String) -> String? {
      emulator.banner.split(whereSeparator: { $0 == " " || $0 == "\n" })
        .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
    #expect(exported("FIREBASE_AUTH_EMULATOR_HOST") == "[::1]:\(emulator.port)")
    #expect(exported("NCMB_BASE_URL") == "http://[::1]:\(emulator.port)")
    baas.environment = [
      "BAAS_BACKEND": backend, "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": try #require(exported("FIREBASE_AUTH_EMULATOR_HOST")),
      "NCMB_BASE_URL": try #require(exported("NCMB_BASE_URL")),
      "NCMB_APPLICATION_KEY": emulator.applicationKey, "NCMB_CLIENT_KEY": emulator.clientKey,
    ]
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signUp = try await baas.run(["signup", "--email", account.email], environment: password)
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    #expect(try await baas.run(["signout"]).status == 0)
    let signIn = try await baas.run(["signin", "--email", account.email], environment: password)
    #expect(signIn.status == 0, "\(signIn.allOutput)")
    let whoami = try await baas.run(["whoami", "--json"])
    #expect(whoami.standardOutput.contains(account.email), "\(whoami.allOutput)")

    stopped = true
    let stop = await emulator.stop()
    #expect(stop.status == 0)
    #expect(!stop.standardError.contains("warning"), "::1 is loopback: \(stop.standardError)")
  }
}
