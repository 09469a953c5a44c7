import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// The time claims checked against each other, not only against the clock: `exp` after
/// `iat`, a believable lifetime (``UserBackendKit/TokenLifetime``, the adapters' rule),
/// `auth_time` not after `iat`.
@Suite("Token verifier: iat, exp and auth_time agree", .timeLimit(.minutes(1)))
struct TimeClaimAgreementTests {
  static let now = Int(Tokens.start.timeIntervalSince1970)

  /// Claims that pass every check against the clock (within the skew) but contradict
  /// each other.
  static var contradictions: [(String, [String: Any])] {
    [
      ("exp before iat", ["iat": now + 250, "exp": now + 10, "auth_time": now + 250]),
      ("exp equal to iat", ["iat": now + 100, "exp": now + 100, "auth_time": now + 100]),
      ("a lifetime of 3,000 years", ["iat": 1, "exp": 99_999_999_999, "auth_time": 1]),
      ("a year and a second", ["iat": now - 10, "exp": now - 10 + 31_536_001]),
      ("under the shortest lifetime", ["iat": now - 10, "exp": now - 10 + 599]),
      ("a lifetime of 100 ns", ["iat": now - 10, "exp": Double(now - 10) + 0.0000001]),
      ("auth_time after iat", ["iat": now - 10, "auth_time": now - 5]),
    ]
  }

  @Test("contradicting time claims are inconsistentTimes", arguments: contradictions.indices)
  func refused(index: Int) async throws {
    let (name, changes) = Self.contradictions[index]
    let key = try TestKeys.primary()
    let verifier = FirebaseTokenVerifier.testing(
      CertificateEndpoint(["k1": key.certificatePEM]), clock: ManualClock(Tokens.start))
    let token = key.token(claims: Tokens.claims(changes), keyID: "k1")
    let error = await #expect(throws: TokenRejection.self, "\(name)") {
      try await verifier.verify(token)
    }
    #expect(error?.reason.rawValue == "inconsistentTimes", "\(name): \(String(describing: error))")
  }

  @Test("the bounds themselves are believed: 600 s, a year, auth_time equal to iat")
  func boundsAccepted() async throws {
    let key = try TestKeys.primary()
    let verifier = FirebaseTokenVerifier.testing(
      CertificateEndpoint(["k1": key.certificatePEM]), clock: ManualClock(Tokens.start))
    for changes: [String: Any] in [
      ["iat": Self.now - 10, "exp": Self.now - 10 + 600],
      ["iat": Self.now - 10, "exp": Self.now - 10 + 31_536_000],
      ["iat": Self.now - 10, "auth_time": Self.now - 10],
    ] {
      let verified = try await verifier.verify(
        key.token(claims: Tokens.claims(changes), keyID: "k1"))
      #expect(verified.userID == "u-1")
    }
  }

  @Test("unsigned emulator tokens meet the same rule")
  func unsigned() async throws {
    let verifier = FirebaseTokenVerifier.testing(
      CertificateEndpoint([:]), clock: ManualClock(Tokens.start), unsigned: true)
    let token = JSONWebToken.unsigned(
      claims: Tokens.claims(["iat": Self.now + 250, "exp": Self.now + 10, "auth_time": 1]))
    let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(token) }
    #expect(error?.reason.rawValue == "inconsistentTimes")
  }
}
