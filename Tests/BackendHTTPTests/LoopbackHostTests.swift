import BackendHTTP
import Testing

/// The one loopback rule behind every "plain HTTP only to loopback" check.
@Suite("URLLoaderSupport.isLoopback(host:)", .timeLimit(.minutes(1)))
struct LoopbackHostTests {
  @Test(arguments: [
    "127.0.0.1", "127.255.255.254", "127.1.2.3", "localhost", "LOCALHOST", "api.localhost",
    "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "[::FFFF:127.9.9.9]",
  ])
  func loopback(_ host: String) { #expect(URLLoaderSupport.isLoopback(host: host)) }

  /// Other spellings of 127.0.0.1 that some parsers take (`127.1`, octal, a sign), names
  /// that only look like loopback, and other addresses.
  @Test(arguments: [
    "127.0.0.+1", "127.1", "0177.0.0.1", "0x7f.0.0.1", "2130706433", "127.0.0.1.",
    "127.evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "127.0.0.256",
    "1270.0.0.1", "128.0.0.1", "::2", "::ffff:128.0.0.1", "[::1", "", "0.0.0.0", "::",
  ])
  func notLoopback(_ host: String) { #expect(!URLLoaderSupport.isLoopback(host: host)) }
}

/// IP addresses written other than in their standard form, which libcurl rewrites before
/// sending (so a signature over the written host would not match).
@Suite("URLLoaderSupport.addressSpellingProblem(host:)", .timeLimit(.minutes(1)))
struct AddressSpellingTests {
  @Test(arguments: [
    "127.0.0.1", "10.1.2.3", "::1", "[::1]", "[fe80::1]", "[::ffff:127.0.0.1]", "localhost",
    "mbaas.api.nifcloud.com", "1a.example", "0x.example", "127.example",
  ])
  func standard(_ host: String) {
    #expect(URLLoaderSupport.addressSpellingProblem(host: host) == nil)
  }

  @Test(arguments: [
    "127.1", "127.000.000.001", "0177.0.0.1", "0x7f.0.0.1", "2130706433", "127.0.0.01",
    "[0:0:0:0:0:0:0:1]", "[::0001]", "[::1%eth0]", "[zz]", "[FE80::1]", "[::ffff:7f00:1]",
  ])
  func nonStandard(_ host: String) {
    #expect(URLLoaderSupport.addressSpellingProblem(host: host) != nil)
  }
}

@Suite("URLLoaderSupport.isPrivateNetwork(host:)", .timeLimit(.minutes(1)))
struct PrivateNetworkHostTests {
  @Test(
    "loopback, RFC 1918, unique-local, single-label and private suffixes, IPv4-mapped too",
    arguments: [
      "127.0.0.1", "localhost", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.1",
      "[fd12::1]", "emulator", "EMULATOR", "ncmb.internal", "host.local", "box.lan",
      "nas.home.arpa", "::1", "::ffff:10.0.0.1", "[::ffff:192.168.1.1]", "ncmb.internal.",
    ])
  func privateHosts(host: String) {
    #expect(URLLoaderSupport.isPrivateNetwork(host: host))
  }

  @Test(
    "public, link-local and unspecified addresses, names, non-standard address spellings",
    arguments: [
      "8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1", "11.0.0.1", "0.0.0.0",
      "[2001:db8::1]", "example.com", "internal.example.com", "10.1", "127.1", "",
      "0x0a.0.0.1", "0x08080808", "134744072", "0177.0.0.1", "169.254.169.254",
      "169.254.1.1", "fe80::1", "[FE80::1]", "febf::1", "::ffff:169.254.169.254", "::",
      "[::]", "::ffff:0.0.0.0", "169.254.169.254.", "2852039166", "0xa9fea9fe", ".", "..",
      "10.0.0.1..", "10.0.0.1.", "emulator.",
    ])
  func publicHosts(host: String) {
    #expect(!URLLoaderSupport.isPrivateNetwork(host: host))
  }
}
