import Foundation
import Testing

@testable import baas

/// Every spelling of "every address" for `baas emulator --host` is the wildcard: it binds
/// every interface and prints loopback exports a client can use. An IPv4-mapped address
/// (`::ffff:0.0.0.0`) is its IPv4 address (the kernel binds a mapped address as the IPv4
/// one, so its socket accepts IPv4 clients only and `[::1]` would not reach it). Numbers
/// that only libcurl's reading makes an address (`0`, `127.1`, `0x7f.0.0.1`, `00.0.0.0`)
/// are refused, saying to write the dotted-decimal form.
@Suite("baas emulator --host: every wildcard spelling is the wildcard", .timeLimit(.minutes(2)))
struct EmulatorWildcardHostTests {
  @Test(
    "IPv4 wildcard spellings bind 0.0.0.0 and print 127.0.0.1",
    arguments: ["0.0.0.0", "::ffff:0.0.0.0", "[::ffff:0.0.0.0]", "::FFFF:0:0", "::ffff:0000:0000"])
  func ipv4Wildcard(_ host: String) throws {
    let address = try #require(EmulatorListenAddress(host))
    #expect(address.isWildcard)
    #expect(address.bindHost == "0.0.0.0")
    #expect(address.clientURLHost == "127.0.0.1")
  }

  @Test(
    "IPv6 wildcard spellings bind :: and print [::1]",
    arguments: ["::", "[::]", "0:0:0:0:0:0:0:0", "::0", "0::0", "[0:0::0]", "::0.0.0.0"])
  func ipv6Wildcard(_ host: String) throws {
    let address = try #require(EmulatorListenAddress(host))
    #expect(address.isWildcard)
    #expect(address.bindHost == "::")
    #expect(address.clientURLHost == "[::1]")
  }

  @Test(
    "an IPv4-mapped address is its IPv4 address", arguments: ["::ffff:127.0.0.1", "::ffff:7f00:1"])
  func mappedLoopback(_ host: String) throws {
    let address = try #require(EmulatorListenAddress(host))
    #expect(!address.isWildcard)
    #expect(address.bindHost == "127.0.0.1" && !address.isIPv6 && address.isLoopback)
    #expect(address.clientURLHost == "127.0.0.1")
  }

  @Test(
    "numbers in another form than dotted decimal are refused, naming the form",
    arguments: ["0", "127.1", "0x0.0.0.0", "00.0.0.0", "0.0", "4294967295"])
  func otherNumberForms(_ host: String) async throws {
    #expect(EmulatorListenAddress(host) == nil)
  }

  @Test("the usage error says so")
  func usageError() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["emulator", "--host", "0", "--port", "0"], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("dotted-decimal"), "\(result.standardError)")
  }
}
