import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// One unusable entry in the certificate answer refuses only the tokens whose `kid`
/// names it.
@Suite("Token verifier: unusable certificate entries are skipped", .timeLimit(.minutes(1)))
struct CertificateEntryTests {
  /// Entries no RSA key can be read from: not PEM, a truncated PEM.
  static func unusable(_ good: String) -> [String] {
    ["x", String(good.prefix(good.count / 2)), ""]
  }

  @Test("a good kid verifies beside an unusable entry")
  func goodKidBesideBadEntry() async throws {
    let key = try TestKeys.primary()
    for bad in Self.unusable(key.certificatePEM) {
      let endpoint = CertificateEndpoint(["k1": key.certificatePEM, "k2": bad])
      let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
      let claims = try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k1"))
      #expect(claims.userID == "u-1")
      #expect(endpoint.requests == 1)
    }
  }

  @Test("the unusable entry's own kid is certificatesUnavailable naming the kid, not the entry")
  func badKidNamed() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM, "k2": "x-not-a-certificate"])
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    let error = await #expect(throws: TokenRejection.self) {
      try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k2"))
    }
    #expect(error?.reason == .certificatesUnavailable)
    #expect(error?.detail.contains("kid k2") == true, "\(String(describing: error))")
    #expect(error?.detail.contains("x-not-a-certificate") == false)
    // A kid nobody published is still unknownKeyID.
    let unknown = await #expect(throws: TokenRejection.self) {
      try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k9"))
    }
    #expect(unknown?.reason == .unknownKeyID)
  }

  @Test("an answer without any usable entry is a failed fetch, not kept")
  func noUsableEntry() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": "x", "k2": "y"])
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    for _ in 0..<2 {
      let error = await #expect(throws: TokenRejection.self) {
        try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k1"))
      }
      #expect(error?.reason == .certificatesUnavailable)
    }
    #expect(endpoint.requests == 2)
    // Once the endpoint serves a good set, the next verification uses it.
    endpoint.state.withLock { $0.certificates = ["k1": key.certificatePEM] }
    _ = try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k1"))
  }
}
