import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("baas emulator: --host and --data problems are clear", .timeLimit(.minutes(10)))
struct EmulatorOptionTests {
  @Test(
    "a --host that is not an IP address (or localhost) is a usage error",
    arguments: ["example.com", "::g", "[::1", "fe80::1%lo", "127.0.0.256"])
  func nonAddressHost(host: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["emulator", "--host", host, "--port", "0"], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--host"))
  }

  @Test("--data in a missing directory: cannot open the data file, exit 2")
  func missingDataDirectory() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let path = baas.home.appendingPathComponent("no/such/dir/users.sqlite").path
    let result = try await baas.run(["emulator", "--port", "0", "--data", path], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("cannot open the data file \(path)"))
    #expect(!result.standardError.contains("database("))
  }

  @Test("--host 0.0.0.0 warns that the emulator should stay on loopback")
  func allInterfacesWarning() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home, host: "0.0.0.0")
    // The printed exports name loopback (0.0.0.0 is an address to listen on, and the NCMB
    // adapter refuses plain HTTP to it), and say how to reach it from elsewhere.
    let banner = emulator.banner
    #expect(banner.contains("export NCMB_BASE_URL=http://127.0.0.1:\(emulator.port) "), "\(banner)")
    #expect(banner.contains("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:\(emulator.port) "))
    #expect(banner.contains("listening on every address (0.0.0.0)"))
    #expect(!banner.contains("http://0.0.0.0"))
    let stopped = await emulator.stop()
    #expect(stopped.status == 0)
    #expect(stopped.standardError.contains("warning"), "\(stopped.standardError)")
    #expect(stopped.standardError.contains("any API key"))
  }
}
