import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// The Auth emulator is reached over plain HTTP, and every request to it carries the API
/// key, and a sign-in the password: only to a loopback or private-network host, the rule
/// of a plain-HTTP NCMB base URL and of a Firestore emulator with production Auth.
@Suite("Auth emulator host: loopback or private network only", .timeLimit(.minutes(1)))
struct AuthEmulatorHostScopeTests {
  @Test(
    "a public Auth emulator host is refused when the backend is made, naming the setting",
    arguments: [
      "203.0.113.5:80", "auth.example.com:9099", "[2001:db8::1]:9099", "8.8.8.8:9099",
    ])
  func publicHostRefused(_ host: String) {
    let error = #expect(throws: UserBackendError.self) {
      try FirestoreStub().backend(emulatorHost: host)
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "emulatorHost")
    #expect(reason.contains("plain HTTP"), "\(reason)")
    #expect(!reason.contains(Fixture.apiKey))
  }

  @Test(
    "loopback and private-network Auth emulator hosts are allowed",
    arguments: [
      "127.0.0.1:9099", "localhost:9099", "[::1]:9099", "10.0.0.5:9099", "192.168.1.20:9099",
      "172.16.0.9:9099", "auth:9099", "auth.internal:9099", "[fd00::5]:9099",
    ])
  func privateHostAllowed(_ host: String) throws {
    _ = try FirestoreStub().backend(emulatorHost: host)
  }
}
