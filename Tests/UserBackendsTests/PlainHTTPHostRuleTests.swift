import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit
import UserBackends

/// One host rule for every setting that sends secrets in plain HTTP (the Auth emulator
/// host, the Firestore emulator host with production Auth, a plain-HTTP NCMB base URL), in
/// the configuration resolution and in the adapters alike: link-local addresses
/// (169.254.0.0/16, where cloud metadata services answer, and fe80::/10) are not a private
/// network, in any spelling; the unspecified address (0.0.0.0, ::) is refused with its own
/// reason, not called "a public host".
@Suite("Plain HTTP with secrets: one host rule in every layer", .timeLimit(.minutes(1)))
struct PlainHTTPHostRuleTests {
  /// Link-local hosts as `host:port` settings write them.
  static let linkLocal = [
    "169.254.169.254", "169.254.0.1", "[fe80::1]", "[fe80::a:b]", "[febf::1]",
    "[::ffff:169.254.169.254]",
  ]
  /// The same address in forms libcurl reads as 169.254.169.254.
  static let numericForms = ["2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518"]
  static let unspecified = ["0.0.0.0", "[::]", "[::ffff:0.0.0.0]"]

  static let firebase = ["BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "BAAS_HOME": "/tmp"]
  static let ncmb = [
    "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "a", "NCMB_CLIENT_KEY": "c",
    "BAAS_HOME": "/tmp",
  ]

  /// The resolution error for `environment`, or `nil` when it is accepted.
  static func resolutionError(_ environment: [String: String]) -> BackendConfigurationError? {
    do {
      let configuration = try BackendConfiguration.resolve(environment: environment)
      if configuration.backend == .ncmb { _ = try configuration.ncmbBaseURL() }
      return nil
    } catch let error as BackendConfigurationError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  /// The adapters' errors for the same host, as `(setting, reason)`.
  static func adapterErrors(_ host: String) -> [(String, String)] {
    var found: [(String, String)] = []
    func record(_ body: () throws -> Void) {
      do {
        try body()
        found.append(("accepted", ""))
      } catch let error as UserBackendError {
        if case .misconfigured(let setting, let reason) = error.code {
          found.append((setting, reason))
        } else {
          found.append(("other", "\(error)"))
        }
      } catch {
        found.append(("other", "\(error)"))
      }
    }
    record {
      _ = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(apiKey: "k", emulatorHost: "\(host):9099"),
        transport: NetworkTransport.standard(), sessionStore: InMemorySessionStore())
    }
    record {
      _ = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(
          apiKey: "k", projectID: "demo-project", firestoreEmulatorHost: "\(host):8080"),
        transport: NetworkTransport.standard(), sessionStore: InMemorySessionStore())
    }
    record {
      try NCMBConfiguration(
        applicationKey: "a", clientKey: "c", baseURL: URL(string: "http://\(host):9099")!
      ).validate()
    }
    return found
  }

  @Test("link-local hosts are refused by every setting and every adapter", arguments: linkLocal)
  func linkLocalRefused(host: String) throws {
    for (variable, value, base) in [
      ("FIREBASE_AUTH_EMULATOR_HOST", "\(host):9099", Self.firebase),
      ("FIRESTORE_EMULATOR_HOST", "\(host):8080", Self.firebase),
      ("NCMB_BASE_URL", "http://\(host):9099", Self.ncmb),
    ] {
      let error = try #require(
        Self.resolutionError(base.merging([variable: value]) { $1 }), "\(variable)=\(value)")
      #expect(error.setting.contains(variable), "\(error)")
      #expect(error.reason.contains("link-local"), "\(variable): \(error)")
    }
    let adapters = Self.adapterErrors(host)
    #expect(adapters.map(\.0) == ["emulatorHost", "firestoreEmulatorHost", "baseURL"])
    for (setting, reason) in adapters {
      #expect(reason.contains("link-local"), "\(setting): \(reason)")
    }
  }

  @Test(
    "the unspecified address is refused with its own reason, not as a public host",
    arguments: unspecified)
  func unspecifiedRefused(host: String) throws {
    for (variable, value, base) in [
      ("FIREBASE_AUTH_EMULATOR_HOST", "\(host):1", Self.firebase),
      ("FIRESTORE_EMULATOR_HOST", "\(host):8080", Self.firebase),
      ("NCMB_BASE_URL", "http://\(host):9099", Self.ncmb),
    ] {
      let error = try #require(
        Self.resolutionError(base.merging([variable: value]) { $1 }), "\(variable)=\(value)")
      #expect(error.setting.contains(variable), "\(error)")
      #expect(error.reason.contains("unspecified"), "\(variable): \(error)")
      #expect(!error.reason.contains("public"), "\(variable): \(error)")
    }
    let adapters = Self.adapterErrors(host)
    #expect(adapters.map(\.0) == ["emulatorHost", "firestoreEmulatorHost", "baseURL"])
    for (setting, reason) in adapters {
      #expect(reason.contains("unspecified"), "\(setting): \(reason)")
    }
  }

  @Test(
    "numeric forms of an address are refused, without calling them public hosts",
    arguments: numericForms)
  func numericFormsRefused(host: String) throws {
    for (variable, value, base) in [
      ("FIREBASE_AUTH_EMULATOR_HOST", "\(host):9099", Self.firebase),
      ("FIRESTORE_EMULATOR_HOST", "\(host):8080", Self.firebase),
      ("NCMB_BASE_URL", "http://\(host):9099", Self.ncmb),
    ] {
      let error = try #require(
        Self.resolutionError(base.merging([variable: value]) { $1 }), "\(variable)=\(value)")
      #expect(error.setting.contains(variable), "\(error)")
      #expect(!error.reason.contains("public host"), "\(variable): \(error)")
    }
    #expect(
      Self.adapterErrors(host).map(\.0) == ["emulatorHost", "firestoreEmulatorHost", "baseURL"])
  }

  /// A `host:port` setting holding user info is refused without repeating it (the reason
  /// used to suggest `[u:secret@10.0.0.5]:9099`, as if it were an IPv6 address).
  @Test(
    "an emulator host with a user name and password is refused without echoing them",
    arguments: ["FIREBASE_AUTH_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST"])
  func userInfoNotEchoed(variable: String) throws {
    let error = try #require(
      Self.resolutionError(Self.firebase.merging([variable: "u:secret77@10.0.0.5:9099"]) { $1 }))
    #expect(error.setting.contains(variable), "\(error)")
    #expect(!"\(error)".contains("secret77"), "\(error)")
  }

  @Test(
    "private hosts stay accepted everywhere, IPv4-mapped ones too",
    arguments: [
      "10.0.0.5", "192.168.1.10", "[fd00::1]", "[::ffff:10.0.0.5]", "emulator", "127.0.0.1",
    ])
  func privateAccepted(host: String) throws {
    for (variable, value, base) in [
      ("FIREBASE_AUTH_EMULATOR_HOST", "\(host):9099", Self.firebase),
      ("FIRESTORE_EMULATOR_HOST", "\(host):8080", Self.firebase),
      ("NCMB_BASE_URL", "http://\(host):9099", Self.ncmb),
    ] {
      let error = Self.resolutionError(base.merging([variable: value]) { $1 })
      #expect(error == nil, "\(variable)=\(value): \(String(describing: error))")
    }
    #expect(Self.adapterErrors(host).map(\.0) == ["accepted", "accepted", "accepted"])
  }
}
