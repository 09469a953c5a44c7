import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

#if canImport(FoundationNetworking)
  @Suite("Firebase: IPv6 literal hosts are refused up front on Linux", .timeLimit(.minutes(2)))
  struct FirebaseIPv6HostTests {
    @Test(
      "an IPv6 literal emulator host or URL override is misconfigured, naming the setting",
      arguments: [
        ("emulatorHost", "[::1]:9099", nil, nil),
        ("emulatorHost", "[fe80::1]:9099", nil, nil),
        ("identityToolkitBaseURL", nil, "http://[::1]:8080/v1/", nil),
        ("secureTokenURL", nil, nil, "http://[::1]:8080/v1/token"),
      ] as [(String, String?, String?, String?)])
    func refused(_ setting: String, _ host: String?, _ toolkit: String?, _ token: String?) {
      let configuration = FirebaseConfiguration(
        apiKey: "K", emulatorHost: host, identityToolkitBaseURL: toolkit.flatMap(URL.init),
        secureTokenURL: token.flatMap(URL.init))
      let error = #expect(throws: UserBackendError.self) {
        _ = try configuration.resolvedEndpoints()
      }
      guard case .misconfigured(let named, let reason) = error?.code else {
        Issue.record("expected misconfigured, got \(String(describing: error))")
        return
      }
      #expect(named == setting)
      #expect(reason.contains("IPv6 literals are not supported on Linux"))
      #expect(reason.contains("127.0.0.1"))
    }
  }
#endif
