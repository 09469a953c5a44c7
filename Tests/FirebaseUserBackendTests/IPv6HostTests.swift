import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite(
  "Firebase: IPv6 literal hosts are accepted (the default transport reaches them)",
  .timeLimit(.minutes(1)))
struct FirebaseIPv6HostTests {
  @Test(
    "an IPv6 literal emulator host, Firestore emulator host or URL override resolves",
    arguments: [
      ("[::1]:9099", nil, nil, nil, "http://[::1]:9099/identitytoolkit.googleapis.com/v1/"),
      // Unique-local, not link-local: fe80::/10 is refused (HostScope).
      ("[fd12::1]:9099", nil, nil, nil, "http://[fd12::1]:9099/identitytoolkit.googleapis.com/v1/"),
      (
        "[FD12::1]:9099", nil, nil, nil,
        "http://[fd12::1]:9099/identitytoolkit.googleapis.com/v1/"
      ),
      (nil, "http://[::1]:8080/v1/", nil, nil, "http://[::1]:8080/v1/"),
      (nil, nil, "http://[::1]:8080/v1/token", nil, "https://identitytoolkit.googleapis.com/v1/"),
      (
        "127.0.0.1:9099", nil, nil, "[::1]:8080",
        "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/"
      ),
    ] as [(String?, String?, String?, String?, String)])
  func accepted(
    _ host: String?, _ toolkit: String?, _ token: String?, _ firestore: String?,
    _ expectedToolkit: String
  ) throws {
    let configuration = FirebaseConfiguration(
      apiKey: "K", projectID: "demo-ipv6", emulatorHost: host,
      identityToolkitBaseURL: toolkit.flatMap(URL.init), secureTokenURL: token.flatMap(URL.init),
      firestoreEmulatorHost: firestore)
    let endpoints = try configuration.resolvedEndpoints()
    #expect(endpoints.identityToolkitBase == expectedToolkit)
    if let token { #expect(endpoints.secureToken == token) }
    if let firestore {
      let location = try #require(try configuration.resolvedFirestore())
      #expect(location.documentsURL.hasPrefix("http://\(firestore)/v1/projects/demo-ipv6/"))
    }
  }

  @Test(
    "plain HTTP to a non-loopback IPv6 literal is still refused (only loopback or the emulator)",
    arguments: ["http://[2001:db8::1]:8080/v1/"])
  func plainHTTPElsewhere(_ toolkit: String) {
    let configuration = FirebaseConfiguration(
      apiKey: "K", identityToolkitBaseURL: URL(string: toolkit))
    let error = #expect(throws: UserBackendError.self) {
      _ = try configuration.resolvedEndpoints()
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "identityToolkitBaseURL")
    #expect(reason.contains("plain HTTP"))
  }

  @Test("an IPv6 literal emulator host without brackets is still malformed")
  func unbracketed() {
    #expect(throws: UserBackendError.self) {
      _ = try FirebaseConfiguration(apiKey: "K", emulatorHost: "::1:9099").resolvedEndpoints()
    }
  }

  @Test("an IPv6 emulator host in a long form is refused, naming the standard one")
  func longForm() {
    let error = #expect(throws: UserBackendError.self) {
      _ = try FirebaseConfiguration(apiKey: "K", emulatorHost: "[0:0:0:0:0:0:0:1]:9099")
        .resolvedEndpoints()
    }
    #expect(error?.description.contains("[::1]") == true, "\(String(describing: error))")
  }
}
