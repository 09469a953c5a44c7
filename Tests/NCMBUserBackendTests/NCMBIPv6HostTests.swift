import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite(
  "NCMB: IPv6 literal base URLs are accepted (the default transport reaches them)",
  .timeLimit(.minutes(1)))
struct NCMBIPv6HostTests {
  @Test(
    "a base URL with an IPv6 literal host is accepted, the host signed as the URL gives it",
    arguments: ["http://[::1]:9099", "http://[::1]", "https://[2001:db8::1]:8443/prefix"])
  func accepted(_ url: String) throws {
    let configuration = NCMBConfiguration(
      applicationKey: "a", clientKey: "k", baseURL: try #require(URL(string: url)))
    try configuration.validate()
    #expect(configuration.fqdn.contains(":"))
    _ = try NCMBUserBackend(
      configuration: configuration, transport: StubTransport(),
      sessionStore: InMemorySessionStore())
  }

  @Test("localhost and IPv4 loopback base URLs are still accepted")
  func acceptedIPv4() throws {
    for url in ["http://localhost:9099", "http://127.0.0.1:9099"] {
      let configuration = NCMBConfiguration(
        applicationKey: "a", clientKey: "k", baseURL: try #require(URL(string: url)))
      _ = try NCMBUserBackend(
        configuration: configuration, transport: StubTransport(),
        sessionStore: InMemorySessionStore())
    }
  }
}
