import BackendHTTP
import Foundation
import NCMBSigning
import Testing

/// The host line of the string to sign: values no server computes are refused by
/// `NCMBSignature.fqdnProblem(_:)` (the check `baas ncmb sign --fqdn` makes).
@Suite("NCMB signature: the FQDN's shape", .timeLimit(.minutes(1)))
struct NCMBFQDNTests {
  @Test(
    "what no server signs is refused",
    arguments: [
      "", " ", "mbaas.api.nifcloud.com ", " mbaas.api.nifcloud.com", "mbaas api",
      "mbaas.api.nifcloud.com\n", "mbaas.api.nifcloud.com\r", "a\tb",
      "https://mbaas.api.nifcloud.com", "mbaas.api.nifcloud.com/", "mbaas.api.nifcloud.com/x",
      "mbaas.api.nifcloud.com:443", "127.0.0.1:9099", "[::1]", "::1", "u@mbaas.api.nifcloud.com",
      "mbaas.api.nifcloud.com?x", "mbaas.api.nifcloud.com#x", "bücher.de", "ｍbaas.example",
      "MBAAS.api.nifcloud.com", "x_y.example", ".example", "example.", "a..b", "-a.example",
      "a-.example", String(repeating: "a", count: 64) + ".example",
      (0..<64).map { _ in "abc" }.joined(separator: "."),
    ])
  func refused(_ fqdn: String) {
    let problem = NCMBSignature.fqdnProblem(fqdn)
    #expect(problem != nil)
    // The reason says what a host looks like.
    #expect(problem?.contains("mbaas.api.nifcloud.com") ?? true)
  }

  @Test(
    "host names and IPv4 addresses pass",
    arguments: [
      NCMBSignature.defaultFQDN, "localhost", "127.0.0.1", "a", "xn--bcher-kva.de",
      "my-proxy.example.co.jp", "0.example", String(repeating: "a", count: 63) + ".example",
    ])
  func accepted(_ fqdn: String) {
    #expect(NCMBSignature.fqdnProblem(fqdn) == nil)
  }
}
