import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// One unusable configuration and the property the refusal must name.
struct BadConfiguration: Sendable, CustomTestStringConvertible {
  let name: String
  let setting: String
  let configuration: FirebaseTokenVerifier.Configuration
  var testDescription: String { "\(name) -> \(setting)" }

  init(
    _ name: String, _ setting: String, _ change: (inout FirebaseTokenVerifier.Configuration) -> Void
  ) {
    self.name = name
    self.setting = setting
    var configuration = FirebaseTokenVerifier.Configuration(
      projectID: Tokens.projectID, certificatesURL: URL(string: "http://127.0.0.1:1/certs")!)
    change(&configuration)
    self.configuration = configuration
  }

  static func url(_ text: String) -> BadConfiguration {
    BadConfiguration("certificatesURL \(text)", "certificatesURL") {
      $0.certificatesURL = URL(string: text)!
    }
  }

  static let all: [BadConfiguration] =
    [
      "http://127.0.0.1:99999/certs", "http://127.0.0.1:0/certs", "http://127.0.0.1:/certs",
      "http://127.0.0.1:18446744073709551617/certs", "http://u:p@127.0.0.1:9099/certs",
      "http://u@127.0.0.1:9099/certs", "ftp://127.0.0.1/certs", "file:///etc/passwd",
      "ws://127.0.0.1:9099/certs", "certs.json", "http:///certs",
      "http://127.0.0.1:9099/certs?alt=json", "http://127.0.0.1:9099/certs#k1",
      // Plain HTTP off the machine: anyone on the path could swap the signing keys.
      "http://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
      "http://10.0.0.5:9099/certs", "http://127.0.0.+1:9099/certs",
    ].map(url)
    + [
      BadConfiguration("projectID empty", "projectID") { $0.projectID = "" },
      BadConfiguration("projectID upper case", "projectID") { $0.projectID = "Demo-Verify" },
      BadConfiguration("projectID with a space", "projectID") { $0.projectID = "demo verify" },
      BadConfiguration("projectID with a slash", "projectID") { $0.projectID = "demo/verify" },
      BadConfiguration("projectID with a newline", "projectID") { $0.projectID = "demo-verify\n" },
      BadConfiguration("projectID too short", "projectID") { $0.projectID = "demo" },
      BadConfiguration("projectID an issuer URL", "projectID") {
        $0.projectID = "https://securetoken.google.com/demo-verify"
      },
      BadConfiguration("clockSkew negative", "clockSkew") { $0.clockSkew = -1 },
      BadConfiguration("clockSkew NaN", "clockSkew") { $0.clockSkew = .nan },
      BadConfiguration("clockSkew infinite", "clockSkew") { $0.clockSkew = .infinity },
      BadConfiguration("clockSkew beyond a token's life", "clockSkew") { $0.clockSkew = 3601 },
      BadConfiguration("minimumRefetchInterval negative", "minimumRefetchInterval") {
        $0.minimumRefetchInterval = -30
      },
      BadConfiguration("minimumRefetchInterval NaN", "minimumRefetchInterval") {
        $0.minimumRefetchInterval = .nan
      },
      BadConfiguration("minimumRefetchInterval infinite", "minimumRefetchInterval") {
        $0.minimumRefetchInterval = .infinity
      },
    ]
    // Emulator mode (unsigned tokens accepted): plain HTTP only to a loopback or
    // private-network host, the rule of every emulator host setting; link-local addresses
    // (cloud metadata at 169.254.169.254) and the unspecified address are not one.
    + [
      "http://203.0.113.5:9099/certs", "http://auth.example.com:9099/certs",
      "http://169.254.169.254/certs", "http://[fe80::1]:9099/certs", "http://0.0.0.0:9099/c",
      "http://[::ffff:169.254.169.254]/certs", "http://2852039166/certs",
    ].map { text in
      BadConfiguration("emulator mode, \(text)", "certificatesURL") {
        $0.certificatesURL = URL(string: text)!
        $0.acceptsUnsignedTokens = true
      }
    }

  /// Configurations at the edges of each rule, which must pass (`setting` is unused).
  static let usable: [BadConfiguration] = [
    BadConfiguration("defaults", "") { _ in },
    BadConfiguration("Google's endpoint", "") {
      $0.certificatesURL = FirebaseTokenVerifier.googleCertificatesURL
    },
    BadConfiguration("https with a port", "") {
      $0.certificatesURL = URL(string: "https://h:443/c")!
    },
    BadConfiguration("upper-case scheme", "") {
      $0.certificatesURL = URL(string: "HTTP://127.0.0.1:9099/c")!
    },
    BadConfiguration("port 65535", "") {
      $0.certificatesURL = URL(string: "http://127.0.0.1:65535/c")!
    },
    BadConfiguration("6-character project ID", "") { $0.projectID = "demo-p" },
    BadConfiguration("30-character project ID", "") {
      $0.projectID = "a" + String(repeating: "b", count: 29)
    },
    BadConfiguration("no skew", "") { $0.clockSkew = 0 },
    BadConfiguration("an hour of skew", "") { $0.clockSkew = 3600 },
    BadConfiguration("refetch at every unknown kid", "") { $0.minimumRefetchInterval = 0 },
    BadConfiguration("refetch at most daily", "") { $0.minimumRefetchInterval = 86_400 },
    BadConfiguration("plain HTTP to localhost", "") {
      $0.certificatesURL = URL(string: "http://localhost:9099/c")!
    },
    BadConfiguration("plain HTTP to ::1", "") {
      $0.certificatesURL = URL(string: "http://[::1]:9099/c")!
    },
    BadConfiguration("plain HTTP to an emulator in another container", "") {
      $0.certificatesURL = URL(string: "http://firebase:9099/c")!
      $0.acceptsUnsignedTokens = true
    },
    BadConfiguration("plain HTTP to an emulator on the private network", "") {
      $0.certificatesURL = URL(string: "http://10.0.0.5:9099/c")!
      $0.acceptsUnsignedTokens = true
    },
  ]
}

@Suite(.timeLimit(.minutes(1)))
struct ConfigurationCheckTests {
  /// Every verification with an unusable configuration is refused as `misconfigured`,
  /// naming the property, before any request reaches the transport: whatever the token.
  @Test(arguments: BadConfiguration.all)
  func verifyRefusesBeforeAnyRequest(_ row: BadConfiguration) async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    let verifier = FirebaseTokenVerifier(
      configuration: row.configuration, transport: endpoint, clock: ManualClock(Tokens.start))
    for token in [key.token(claims: Tokens.claims(), keyID: "k1"), "not-a-token"] {
      let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(token) }
      #expect(error?.reason == .misconfigured, "\(String(describing: error))")
      #expect(error?.setting == row.setting, "\(String(describing: error))")
      #expect(error?.detail.hasPrefix(row.setting + ": ") == true)
      // The value is never repeated: a URL may carry a password.
      #expect(!(error?.detail.contains("u:p@") ?? true))
    }
    #expect(endpoint.requests == 0)
  }

  /// The same refusal up front: from `validate()` and from the validating initializer.
  @Test(arguments: BadConfiguration.all)
  func validateAndTheValidatingInitializerRefuse(_ row: BadConfiguration) {
    let endpoint = CertificateEndpoint([:])
    let validated = #expect(throws: TokenRejection.self) { try row.configuration.validate() }
    #expect(validated?.setting == row.setting)
    let initialized = #expect(throws: TokenRejection.self) {
      _ = try FirebaseTokenVerifier(
        validating: row.configuration, transport: endpoint, clock: ManualClock(Tokens.start))
    }
    #expect(initialized == validated)
    #expect(endpoint.requests == 0)
  }

  /// The values at the edges of each rule, and the defaults, are accepted.
  @Test(arguments: BadConfiguration.usable)
  func usableConfigurationsPass(_ row: BadConfiguration) throws {
    try row.configuration.validate()
    _ = try FirebaseTokenVerifier(
      validating: row.configuration, transport: CertificateEndpoint([:]))
  }

  /// The non-throwing initializer keeps working for a good configuration: a valid token
  /// still verifies (one request).
  @Test func aValidConfigurationStillVerifies() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    let verifier = try FirebaseTokenVerifier(
      validating: .init(
        projectID: Tokens.projectID, certificatesURL: URL(string: "http://127.0.0.1:1/certs")!),
      transport: endpoint, clock: ManualClock(Tokens.start))
    let claims = try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k1"))
    #expect(claims.userID == "u-1")
    #expect(endpoint.requests == 1)
  }
}
