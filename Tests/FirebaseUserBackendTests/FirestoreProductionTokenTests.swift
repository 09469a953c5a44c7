import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Production Auth (no `emulatorHost`) with `firestoreEmulatorHost` sends the production
/// ID token in plain HTTP to the Firestore emulator. To a public host that is refused
/// when the backend is made (no local emulator lives there, and the token would cross the
/// internet in clear text); to loopback or a private network it is allowed, as the NCMB
/// adapter allows plain HTTP there (the `baas` command warns about it).
@Suite("Production Auth with a Firestore emulator host", .timeLimit(.minutes(1)))
struct FirestoreProductionTokenTests {
  @Test(
    "a public Firestore emulator host with production Auth is refused, naming the setting",
    arguments: [
      "203.0.113.5:8080", "firestore.example.com:8080", "[2001:db8::1]:8080", "8.8.8.8:80",
    ])
  func publicHostRefused(_ host: String) {
    let error = #expect(throws: UserBackendError.self) {
      try FirestoreStub().backend(firestoreEmulatorHost: host)
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "firestoreEmulatorHost")
    #expect(reason.contains("plain HTTP"), "\(reason)")
  }

  @Test(
    "loopback and private hosts are allowed with production Auth, and any host with the Auth emulator",
    arguments: [
      ("127.0.0.1:8080", nil), ("[::1]:8080", nil), ("10.0.0.5:8080", nil),
      ("192.168.1.20:8080", nil), ("firestore:8080", nil), ("203.0.113.5:8080", "10.0.0.7:9099"),
    ] as [(String, String?)])
  func allowed(_ host: String, _ auth: String?) throws {
    _ = try FirestoreStub().backend(emulatorHost: auth, firestoreEmulatorHost: host)
  }
}
