import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

@Suite(.timeLimit(.minutes(1)))
struct CertificateCacheTests {
  @Test func certificatesAreCachedUntilMaxAgeRunsOut() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    endpoint.state.withLock { $0.cacheControl = "public, max-age=100" }
    let clock = ManualClock(Tokens.start)
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: clock)
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    _ = try await verifier.verify(token)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 1)
    clock.advance(by: 99)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 1)
    clock.advance(by: 1)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 2)
  }

  // An answer without max-age: CertificateCacheFloorTests.

  @Test func rotationRefetchesOnceForAnUnknownKeyID() async throws {
    let old = try TestKeys.primary()
    let new = try TestKeys.other()
    let endpoint = CertificateEndpoint(["k1": old.certificatePEM])
    let clock = ManualClock(Tokens.start)
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: clock)
    _ = try await verifier.verify(old.token(claims: Tokens.claims(), keyID: "k1"))
    #expect(endpoint.requests == 1)
    // Google publishes k2 and starts signing with it; the cached set is still fresh.
    endpoint.state.withLock {
      $0.certificates = ["k1": old.certificatePEM, "k2": new.certificatePEM]
    }
    clock.advance(by: 60)
    let claims = Tokens.claims(now: clock.now())
    let verified = try await verifier.verify(new.token(claims: claims, keyID: "k2"))
    #expect(verified.userID == "u-1")
    #expect(endpoint.requests == 2)
    // A made-up kid right after: no request (at most one refetch per interval).
    let error = await #expect(throws: TokenRejection.self) {
      try await verifier.verify(new.token(claims: claims, keyID: "k-made-up"))
    }
    #expect(error?.reason == .unknownKeyID)
    #expect(endpoint.requests == 2)
    // The old key still verifies from the cache.
    _ = try await verifier.verify(old.token(claims: claims, keyID: "k1"))
    #expect(endpoint.requests == 2)
  }

  @Test func aThousandConcurrentVerificationsSendOneRequest() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM], delay: .milliseconds(50))
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    let accepted = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<1000 {
        group.addTask { (try? await verifier.verify(token)) != nil }
      }
      var count = 0
      for await ok in group where ok { count += 1 }
      return count
    }
    #expect(accepted == 1000)
    #expect(endpoint.requests == 1)
  }

  @Test func unreachableOrBadCertificatesAreReported() async throws {
    let key = try TestKeys.primary()
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    let setups: [(String, @Sendable (inout CertificateEndpoint.State) -> Void)] = [
      ("unreachable", { $0.unreachable = true }),
      ("status 500", { $0.status = 500 }),
      ("not a certificate", { $0.certificates = ["k1": "-----BEGIN CERTIFICATE-----\nAAAA"] }),
      ("empty document", { $0.certificates = [:] }),
    ]
    for (name, setup) in setups {
      let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
      endpoint.state.withLock { setup(&$0) }
      let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
      let error = await #expect(throws: TokenRejection.self, "\(name)") {
        try await verifier.verify(token)
      }
      #expect(error?.reason == .certificatesUnavailable, "\(name)")
    }
  }

  @Test(
    arguments: [
      ("public, max-age=19766, must-revalidate, no-transform", 19766.0),
      ("max-age=0", 0), ("MAX-AGE = 5", 5), ("no-cache", nil), ("max-age=-1", nil),
      ("max-age=abc", nil), ("max-age=99999999999", 31_536_000),
      ("max-age=+60", nil), ("max-age=٦٠", nil), ("max-age=0x10", nil), ("max-age=\"60\"", 60),
    ] as [(String, Double?)])
  func maxAgeIsRead(_ header: String, _ expected: Double?) {
    #expect(CertificateStore.maxAge(header) == expected)
  }
}
