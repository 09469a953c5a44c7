import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// One row of the table: a token made from the test keys and the reason it must fail with.
struct RejectionCase: Sendable, CustomTestStringConvertible {
  let name: String
  let expected: TokenRejectionReason
  let make: @Sendable (RS256SigningKey, RS256SigningKey) -> String
  var testDescription: String { "\(name) -> \(expected.rawValue)" }

  static func signed(_ changes: [String: Any])
    -> @Sendable (RS256SigningKey, RS256SigningKey)
    -> String
  {
    let claims = Tokens.claims(changes)
    let data = (try? JSONSerialization.data(withJSONObject: claims)) ?? Data()
    return { key, _ in
      let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
      return key.token(claims: claims, keyID: "k1")
    }
  }

  static let all: [RejectionCase] = [
    RejectionCase(name: "not a JWT", expected: .malformed) { _, _ in "not-a-token" },
    RejectionCase(name: "two segments", expected: .malformed) { key, _ in
      key.token(claims: Tokens.claims(), keyID: "k1").split(separator: ".").prefix(2)
        .joined(separator: ".")
    },
    RejectionCase(name: "header not JSON", expected: .malformed) { key, _ in
      let parts = key.token(claims: Tokens.claims(), keyID: "k1").split(separator: ".")
      return Base64URL.encode(Data("nope".utf8)) + "." + parts[1] + "." + parts[2]
    },
    RejectionCase(name: "exp missing", expected: .malformed, make: signed(["exp": NSNull()])),
    RejectionCase(name: "iat a string", expected: .malformed, make: signed(["iat": "1"])),
    RejectionCase(name: "exp 1e300", expected: .malformed, make: signed(["exp": 1e300])),
    RejectionCase(name: "alg none", expected: .unsupportedAlgorithm) { _, _ in
      JSONWebToken.unsigned(claims: Tokens.claims())
    },
    RejectionCase(name: "HS256 keyed with the certificate", expected: .unsupportedAlgorithm) {
      key, _ in Tokens.hs256(claims: Tokens.claims(), secret: key.certificatePEM)
    },
    RejectionCase(name: "alg missing", expected: .unsupportedAlgorithm) { key, _ in
      Tokens.compact(header: ["kid": "k1"], claims: Tokens.claims(), signature: Data([1]))
    },
    RejectionCase(name: "unknown kid", expected: .unknownKeyID) { key, _ in
      key.token(claims: Tokens.claims(), keyID: "k-unknown")
    },
    RejectionCase(name: "kid missing", expected: .unknownKeyID) { _, _ in
      Tokens.compact(header: ["alg": "RS256"], claims: Tokens.claims(), signature: Data([1]))
    },
    RejectionCase(name: "signed by another key under a known kid", expected: .badSignature) {
      _, other in other.token(claims: Tokens.claims(), keyID: "k1")
    },
    RejectionCase(name: "claims changed after signing", expected: .badSignature) { key, _ in
      let parts = key.token(claims: Tokens.claims(), keyID: "k1").split(separator: ".")
      let forged = Tokens.compact(
        header: [:], claims: Tokens.claims(["sub": "u-2", "user_id": "u-2"]), signature: Data()
      ).split(separator: ".")
      return parts[0] + "." + forged[1] + "." + parts[2]
    },
    RejectionCase(name: "empty signature", expected: .badSignature) { key, _ in
      let parts = key.token(claims: Tokens.claims(), keyID: "k1").split(separator: ".")
      return parts[0] + "." + parts[1] + "."
    },
    RejectionCase(
      name: "issuer of another project", expected: .wrongIssuer,
      make: signed(["iss": "https://securetoken.google.com/other"])),
    RejectionCase(name: "issuer missing", expected: .wrongIssuer, make: signed(["iss": NSNull()])),
    RejectionCase(
      name: "audience of another project", expected: .wrongAudience,
      make: signed(["aud": "other"])),
    RejectionCase(
      name: "audience an array", expected: .wrongAudience,
      make: signed(["aud": [Tokens.projectID]])),
    RejectionCase(
      name: "sub empty", expected: .invalidSubject,
      make: signed(["sub": "", "user_id": ""])),
    RejectionCase(
      name: "sub 129 characters", expected: .invalidSubject,
      make: signed([
        "sub": String(repeating: "a", count: 129),
        "user_id": String(repeating: "a", count: 129),
      ])),
    RejectionCase(
      // 129 code points, one Character: counted in graphemes it passed as 1.
      name: "sub 129 code points in one character", expected: .invalidSubject,
      make: signed([
        "sub": "a" + String(repeating: "\u{301}", count: 128),
        "user_id": "a" + String(repeating: "\u{301}", count: 128),
      ])),
    RejectionCase(
      name: "sub differs from user_id", expected: .invalidSubject,
      make: signed(["user_id": "u-2"])),
    RejectionCase(
      name: "iat beyond the skew", expected: .issuedInFuture,
      make: signed(["iat": Int(Tokens.start.timeIntervalSince1970) + 301])),
    RejectionCase(
      name: "auth_time beyond the skew", expected: .issuedInFuture,
      make: signed(["auth_time": Int(Tokens.start.timeIntervalSince1970) + 301])),
    RejectionCase(
      name: "exp past the skew", expected: .expired,
      make: signed(["exp": Int(Tokens.start.timeIntervalSince1970) - 300])),
    RejectionCase(
      name: "a 15-second lifetime", expected: .inconsistentTimes,
      make: signed(["exp": Int(Tokens.start.timeIntervalSince1970) + 5])),
  ]
}

@Suite(.timeLimit(.minutes(1)))
struct VerifierTableTests {
  @Test func validTokenGivesTypedClaims() async throws {
    let key = try TestKeys.primary()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    let claims = try await verifier.verify(key.token(claims: Tokens.claims(), keyID: "k1"))
    let now = Int(Tokens.start.timeIntervalSince1970)
    #expect(claims.userID == "u-1")
    #expect(claims.email == "ada@example.com")
    #expect(claims.emailVerified)
    #expect(claims.phoneNumber == "+15555550100")
    #expect(claims.signInProvider == "password")
    #expect(claims.identities == ["email": ["ada@example.com"], "phone": ["+15555550100"]])
    #expect(claims.authTime == Date(timeIntervalSince1970: TimeInterval(now - 100)))
    #expect(claims.issuedAt == Date(timeIntervalSince1970: TimeInterval(now - 10)))
    #expect(claims.expiresAt == Date(timeIntervalSince1970: TimeInterval(now + 3590)))
    #expect(claims.customClaims == ["role": .string("admin"), "level": .number(3)])
    #expect(endpoint.requests == 1)
  }

  @Test(arguments: RejectionCase.all)
  func refusedWithTheFirstFailedCheck(_ row: RejectionCase) async throws {
    let key = try TestKeys.primary()
    let other = try TestKeys.other()
    let endpoint = CertificateEndpoint(["k1": key.certificatePEM])
    let verifier = FirebaseTokenVerifier.testing(endpoint, clock: ManualClock(Tokens.start))
    let token = row.make(key, other)
    let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(token) }
    #expect(error?.reason == row.expected)
    // The explanation never repeats the token.
    let signature = String(token.split(separator: ".").last ?? "")
    #expect(signature.count < 8 || !(error?.description.contains(signature) ?? true))
  }

  @Test func everyReasonHasARow() {
    var covered = Set(RejectionCase.all.map(\.expected))
    covered.insert(.certificatesUnavailable)  // CertificateCacheTests
    covered.insert(.misconfigured)  // ConfigurationCheckTests
    #expect(covered == Set(TokenRejectionReason.allCases))
  }

  @Test func withinTheSkewIsAccepted() async throws {
    let key = try TestKeys.primary()
    let now = Int(Tokens.start.timeIntervalSince1970)
    let verifier = FirebaseTokenVerifier.testing(
      CertificateEndpoint(["k1": key.certificatePEM]), clock: ManualClock(Tokens.start))
    // Each edge on its own token: one token with both would have exp before iat
    // (inconsistentTimes, TimeClaimAgreementTests).
    for changes in [
      ["iat": now + 299, "auth_time": now + 299],
      ["iat": now - 299 - 3600, "auth_time": now - 299 - 3600, "exp": now - 299],
    ] {
      let claims = Tokens.claims(changes)
      let verified = try await verifier.verify(key.token(claims: claims, keyID: "k1"))
      #expect(verified.userID == "u-1")
    }
  }

  @Test func emulatorModeAcceptsUnsignedTokensButChecksEveryClaim() async throws {
    let endpoint = CertificateEndpoint([:])
    let verifier = FirebaseTokenVerifier.testing(
      endpoint, clock: ManualClock(Tokens.start), unsigned: true)
    let claims = try await verifier.verify(JSONWebToken.unsigned(claims: Tokens.claims()))
    #expect(claims.userID == "u-1")
    #expect(endpoint.requests == 0)
    // `user_id` is optional (the Admin SDKs read the uid from `sub`); present, it must match.
    var withoutUserID = Tokens.claims()
    withoutUserID.removeValue(forKey: "user_id")
    let bare = try await verifier.verify(JSONWebToken.unsigned(claims: withoutUserID))
    #expect(bare.userID == "u-1")
    for (changes, reason) in [
      (["aud": "other"], TokenRejectionReason.wrongAudience),
      (["iss": "x"], .wrongIssuer), (["user_id": "u-2"], .invalidSubject),
      (["exp": Int(Tokens.start.timeIntervalSince1970) - 301], .expired),
    ] as [([String: Any], TokenRejectionReason)] {
      let token = JSONWebToken.unsigned(claims: Tokens.claims(changes))
      let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(token) }
      #expect(error?.reason == reason)
    }
    let key = try TestKeys.primary()
    let hs256 = Tokens.hs256(claims: Tokens.claims(), secret: key.certificatePEM)
    let error = await #expect(throws: TokenRejection.self) { try await verifier.verify(hs256) }
    #expect(error?.reason == .unsupportedAlgorithm)
    let signedNone = JSONWebToken.unsigned(claims: Tokens.claims()) + "AAAA"
    let noneError = await #expect(throws: TokenRejection.self) {
      try await verifier.verify(signedNone)
    }
    #expect(noneError?.reason == .badSignature)
  }
}
