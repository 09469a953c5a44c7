import BackendHTTP
import Testing

/// The classification behind every "secrets in plain HTTP" decision, and its reasons.
@Suite("HostScope: where a host is", .timeLimit(.minutes(1)))
struct HostScopeTests {
  @Test(
    "each host lands in its scope",
    arguments: [
      ("127.0.0.1", HostScope.loopback), ("[::1]", .loopback), ("::ffff:127.0.0.1", .loopback),
      ("10.0.0.5", .privateNetwork), ("::ffff:10.0.0.5", .privateNetwork),
      ("[fd12::1]", .privateNetwork), ("emulator", .privateNetwork),
      ("ncmb.internal.", .privateNetwork), ("169.254.169.254", .linkLocal),
      ("::ffff:169.254.169.254", .linkLocal), ("[fe80::1]", .linkLocal),
      ("169.254.169.254.", .linkLocal), ("0.0.0.0", .unspecified), ("[::]", .unspecified),
      ("::ffff:0.0.0.0", .unspecified), ("0.0.0.0.", .unspecified),
      ("2852039166", .nonStandardAddress), ("0xa9fea9fe", .nonStandardAddress),
      ("10.1", .nonStandardAddress), ("8.8.8.8", .publicHost), ("example.com", .publicHost),
      ("emulator.", .publicHost), ("10.0.0.5.", .publicHost), ("", .publicHost),
    ] as [(String, HostScope)])
  func scope(host: String, expected: HostScope) {
    #expect(HostScope(host: host) == expected)
    #expect(
      HostScope(host: host).allowsPlainHTTPSecrets
        == (expected == .loopback || expected == .privateNetwork))
  }

  @Test("every refusal says what the host is")
  func reasons() {
    #expect(HostScope(host: "10.0.0.5").refusal(host: "10.0.0.5") == nil)
    #expect(HostScope.linkLocal.refusal(host: "169.254.169.254")?.contains("link-local") == true)
    #expect(HostScope.unspecified.refusal(host: "0.0.0.0")?.contains("unspecified") == true)
    #expect(HostScope.publicHost.refusal(host: "8.8.8.8") == "is a public host")
    let spelling = HostScope.nonStandardAddress.refusal(host: "2852039166")
    #expect(spelling?.contains("four decimal numbers") == true, "\(String(describing: spelling))")
  }
}
