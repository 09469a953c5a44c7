import BackendHTTP
import Testing

@testable import HTTPReplay

/// Import keeps traffic to loopback whatever `--backend` says; "loopback" is 127.0.0.0/8 as
/// an address, `localhost` and `::1`, never a name that merely starts with `127.`.
@Suite("HAR import: what counts as loopback", .timeLimit(.minutes(1)))
struct ImportLoopbackTests {
  @Test(arguments: ["127.0.0.1", "127.1.2.3", "localhost", "api.localhost", "[::1]", "LOCALHOST"])
  func loopback(_ host: String) { #expect(URLLoaderSupport.isLoopback(host: host)) }

  @Test(
    arguments: [
      "127.evil.example", "127.0.0.1.evil.example", "127.0.0.256", "127.0.0", "1270.0.0.1",
      "example.com", "128.0.0.1", "127.0.0.1a",
    ])
  func notLoopback(_ host: String) { #expect(!URLLoaderSupport.isLoopback(host: host)) }
}
