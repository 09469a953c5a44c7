import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

#if canImport(FoundationNetworking)
  @Suite("NCMB: IPv6 literal base URLs are refused up front on Linux", .timeLimit(.minutes(2)))
  struct NCMBIPv6HostTests {
    @Test(
      "a base URL with an IPv6 literal host is misconfigured baseURL",
      arguments: ["http://[::1]:9099", "http://[::1]", "https://[2001:db8::1]:8443/prefix"])
    func refused(_ url: String) throws {
      let configuration = NCMBConfiguration(
        applicationKey: "a", clientKey: "k", baseURL: try #require(URL(string: url)))
      let error = try #require(throws: UserBackendError.self) {
        try NCMBUserBackend(
          configuration: configuration, transport: StubTransport(),
          sessionStore: InMemorySessionStore())
      }
      guard case .misconfigured(let setting, let reason) = error.code else {
        Issue.record("expected misconfigured, got \(error)")
        return
      }
      #expect(setting == "baseURL")
      #expect(reason.contains("IPv6 literals are not supported on Linux"))
    }

    @Test("localhost and IPv4 loopback base URLs are still accepted")
    func accepted() throws {
      for url in ["http://localhost:9099", "http://127.0.0.1:9099"] {
        let configuration = NCMBConfiguration(
          applicationKey: "a", clientKey: "k", baseURL: try #require(URL(string: url)))
        _ = try NCMBUserBackend(
          configuration: configuration, transport: StubTransport(),
          sessionStore: InMemorySessionStore())
      }
    }
  }
#endif
