import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// A certificate answer without a usable `max-age` (absent, `no-cache`, `max-age=0`, one
/// below the floor) is kept for ``FirebaseTokenVerifier/Configuration/minimumRefetchInterval``
/// seconds, so a stream of tokens cannot turn into one certificate request per token. A
/// failed fetch is not kept: the next verification tries again.
@Suite(.timeLimit(.minutes(1)))
struct CertificateCacheFloorTests {
  @Test(arguments: ["no-cache", "", "max-age=0", "max-age=5", "max-age=abc"])
  func anAnswerWithoutAUsableMaxAgeIsKeptForTheRefetchInterval(_ cacheControl: String)
    async throws
  {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    endpoint.state.withLock { $0.cacheControl = cacheControl }
    let clock = ManualClock(Tokens.start)
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: clock)
    #expect(verifier.configuration.minimumRefetchInterval == 30)
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    for _ in 0..<5 { _ = try await verifier.verify(token) }
    #expect(endpoint.requests == 1)
    clock.advance(by: 29)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 1)
    clock.advance(by: 1)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 2)
  }

  @Test func aRefetchIntervalOfZeroKeepsNothing() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    endpoint.state.withLock { $0.cacheControl = "no-cache" }
    let verifier = FirebaseTokenVerifier(
      configuration: .init(
        projectID: Tokens.projectID, certificatesURL: URL(string: "http://127.0.0.1:1/certs")!,
        minimumRefetchInterval: 0),
      transport: endpoint, clock: ManualClock(Tokens.start))
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    _ = try await verifier.verify(token)
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 2)
  }

  @Test func aFailedFetchIsNotKept() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    endpoint.state.withLock { $0.status = 503 }
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    let token = key.token(claims: Tokens.claims(), keyID: "k1")
    let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(token) }
    #expect(error?.reason == .certificatesUnavailable)
    endpoint.state.withLock { $0.status = 200 }
    _ = try await verifier.verify(token)
    #expect(endpoint.requests == 2)
  }
}
