import BackendHTTP
import Foundation
import UserBackendKit

/// Verifies Firebase ID tokens on a server, as the Firebase Admin SDKs do.
///
/// ``verify(_:)`` makes these checks in this order and throws the first failure as a
/// ``TokenRejection`` with a distinct ``TokenRejectionReason``:
/// 0. the verifier's own ``Configuration`` is usable (`misconfigured`, naming the property;
///    see ``Configuration/validate()``), checked before the token is read and before any
///    request, so an unusable setting never shows up as a network failure or, worse, as
///    a check that silently passes;
/// 1. three canonical base64url segments (unpadded, URL-safe alphabet, zero unused bits),
///    header and claims UTF-8 JSON objects without a byte order mark or a member name given
///    twice, no `crit` header; `iat`, `exp` and `auth_time` numbers in 0…10¹¹ (`malformed`);
/// 2. header `alg` is `RS256` (`unsupportedAlgorithm`; `none` only with
///    ``Configuration/acceptsUnsignedTokens``, and then the signature must be empty);
/// 3. header `kid` names a current certificate (`unknownKeyID`; fetching them can fail
///    with `certificatesUnavailable`);
/// 4. the RS256 signature over `<header>.<claims>` verifies with that certificate's key
///    (`badSignature`);
/// 5. `iss` is `https://securetoken.google.com/<projectID>` (`wrongIssuer`);
/// 6. `aud` is `<projectID>` (`wrongAudience`);
/// 7. `sub` is a non-empty string of at most 128 characters, equal to `user_id` when the
///    token has one (`invalidSubject`);
/// 8. `iat` and `auth_time` are not after now + skew (`issuedInFuture`); `exp` is after
///    now − skew (`expired`);
/// 9. the time claims agree with each other: `exp` is after `iat`, `exp - iat` is a
///    lifetime ``UserBackendKit/TokenLifetime`` believes (10 minutes to 365 days, the
///    adapters' rule; Firebase issues one hour), `auth_time` is not after `iat` (a token
///    is issued at or after its sign-in; both are the server's clock, so no skew)
///    (`inconsistentTimes`).
///
/// Certificates come from ``Configuration/certificatesURL`` (by default Google's
/// `securetoken@system.gserviceaccount.com` x509 endpoint), cached as
/// `CertificateStore` describes. Safe to share: one verifier serves every request.
public struct FirebaseTokenVerifier: Sendable {
  /// Google's endpoint of the certificates that sign Firebase ID tokens: a JSON object of
  /// key ID -> PEM X.509 certificate, with `Cache-Control: max-age`.
  public static let googleCertificatesURL = URL(
    string:
      "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
  )!

  /// The path of the certificate document, on Google's host and on the emulator's.
  public static let certificatesPath =
    "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

  /// What to accept. Built without checks; ``validate()`` (or
  /// ``FirebaseTokenVerifier/init(validating:transport:clock:)``) says whether it is usable,
  /// and every ``FirebaseTokenVerifier/verify(_:)`` refuses an unusable one.
  public struct Configuration: Sendable {
    /// The Firebase project ID: the expected `aud`, and the end of the expected `iss`.
    /// 6–30 lower-case ASCII letters, digits and hyphens, starting with a letter and not
    /// ending with a hyphen (Google's rule for project IDs).
    public var projectID: String
    /// Where the certificates are fetched from: an absolute `http` or `https` URL with a
    /// host, a port (if any) in 1…65535, no user name or password, no query, no fragment.
    public var certificatesURL: URL
    /// How far `iat`/`auth_time` may lie in the future and `exp` in the past, in seconds:
    /// finite, 0…3600 (an ID token lives one hour; a larger skew would accept tokens that
    /// expired longer ago than they were ever valid).
    public var clockSkew: TimeInterval
    /// Accept unsigned tokens (`alg: none`, empty signature), as the Admin SDKs do when
    /// `FIREBASE_AUTH_EMULATOR_HOST` is set: for the Auth Emulator only. Every claim is
    /// still checked; RS256 tokens are still verified in full.
    public var acceptsUnsignedTokens: Bool
    /// The shortest time between two fetches caused by an unknown `kid`, in seconds: finite
    /// and not negative (0 refetches at every unknown `kid`). Also how long a certificate
    /// answer without a usable `max-age` is kept (at most 300 s; 0 keeps nothing).
    public var minimumRefetchInterval: TimeInterval

    /// A configuration for `projectID` with Google's certificates and a 5-minute skew.
    public init(
      projectID: String, certificatesURL: URL = FirebaseTokenVerifier.googleCertificatesURL,
      clockSkew: TimeInterval = 300, acceptsUnsignedTokens: Bool = false,
      minimumRefetchInterval: TimeInterval = 30
    ) {
      self.projectID = projectID
      self.certificatesURL = certificatesURL
      self.clockSkew = clockSkew
      self.acceptsUnsignedTokens = acceptsUnsignedTokens
      self.minimumRefetchInterval = minimumRefetchInterval
    }
  }

  /// The longest token read, in bytes: 16 KiB, ``AnswerLimits/maximumTokenBytes``, the
  /// longest token the adapters keep from an answer (Firebase ID tokens are about 1 KiB;
  /// custom claims are capped at 1000 bytes).
  public static let maximumTokenBytes = AnswerLimits.maximumTokenBytes

  /// What this verifier accepts.
  public let configuration: Configuration
  /// Why ``configuration`` is unusable, found once at initialization; thrown by every
  /// ``verify(_:)``.
  private let configurationProblem: TokenRejection?
  private let clock: any AuthClock
  private let certificates: CertificateStore

  /// A verifier fetching certificates through `transport` and reading time from `clock`.
  ///
  /// Never fails: an unusable `configuration` makes every ``verify(_:)`` throw
  /// `misconfigured` (before any request). To be told at startup instead, use
  /// ``init(validating:transport:clock:)``.
  public init(
    configuration: Configuration, transport: any HTTPTransport = NetworkTransport.standard(),
    clock: any AuthClock = SystemClock()
  ) {
    self.configuration = configuration
    do throws(TokenRejection) {
      try configuration.validate()
      self.configurationProblem = nil
    } catch {
      self.configurationProblem = error
    }
    self.clock = clock
    self.certificates = CertificateStore(
      url: configuration.certificatesURL, transport: transport, clock: clock,
      minimumRefetchInterval: configuration.minimumRefetchInterval)
  }

  /// A verifier as ``init(configuration:transport:clock:)`` makes, after checking
  /// `configuration` (no network call).
  /// - Throws: ``TokenRejection`` `misconfigured`, naming the property at fault (see
  ///   ``Configuration/validate()``).
  public init(
    validating configuration: Configuration,
    transport: any HTTPTransport = NetworkTransport.standard(),
    clock: any AuthClock = SystemClock()
  ) throws(TokenRejection) {
    try configuration.validate()
    self.init(configuration: configuration, transport: transport, clock: clock)
  }

  /// Checks `token` and returns its claims.
  /// - Throws: ``TokenRejection``, the first check that failed (see the type's overview);
  ///   `misconfigured` for every token when ``configuration`` is unusable.
  public func verify(_ token: String) async throws(TokenRejection) -> FirebaseTokenClaims {
    if let configurationProblem { throw configurationProblem }
    let parsed = try ParsedToken(token)
    try await checkSignature(parsed)
    return try checkClaims(parsed)
  }

  private func checkSignature(_ token: ParsedToken) async throws(TokenRejection) {
    let algorithm = token.header.algorithm
    if algorithm == "none" && configuration.acceptsUnsignedTokens {
      guard token.signature.isEmpty else {
        throw TokenRejection(.badSignature, "an unsigned (alg none) token carries a signature")
      }
      return
    }
    guard algorithm == "RS256" else {
      let shown = algorithm.map { String($0.prefix(16)) } ?? "missing"
      throw TokenRejection(
        .unsupportedAlgorithm, "the header's alg is \(shown); only RS256 is accepted")
    }
    guard let keyID = token.header.keyID, !keyID.isEmpty else {
      throw TokenRejection(.unknownKeyID, "the header has no kid")
    }
    let key: RS256PublicKey
    if let cached = certificates.cachedKey(for: keyID) {
      key = cached
    } else {
      key = try await certificates.key(for: keyID)
    }
    guard key.verify(signature: token.signature, message: token.signingInput) else {
      throw TokenRejection(.badSignature, "the RS256 signature does not verify")
    }
  }

  private func checkClaims(_ token: ParsedToken) throws(TokenRejection) -> FirebaseTokenClaims {
    let claims = token.claims
    let projectID = configuration.projectID
    guard ParsedToken.string(claims["iss"]) == "https://securetoken.google.com/" + projectID
    else {
      throw TokenRejection(
        .wrongIssuer, "iss is not https://securetoken.google.com/\(projectID)")
    }
    guard ParsedToken.string(claims["aud"]) == projectID else {
      throw TokenRejection(.wrongAudience, "aud is not \(projectID)")
    }
    // Unicode scalars, the package's length rule: counting grapheme clusters let "a" and
    // thousands of combining marks pass as one character.
    guard
      let subject = ParsedToken.string(claims["sub"]), !subject.isEmpty,
      CredentialValidation.limitedLength(subject) <= CredentialValidation.maximumUserIDLength
    else {
      throw TokenRejection(.invalidSubject, "sub is not a string of 1…128 characters")
    }
    // `user_id` is optional, as the Admin SDKs read tokens (the uid is `sub`); when present
    // it must be the same user.
    if claims["user_id"] != nil, ParsedToken.string(claims["user_id"]) != subject {
      throw TokenRejection(.invalidSubject, "user_id differs from sub")
    }
    let now = clock.now().timeIntervalSince1970
    let skew = configuration.clockSkew
    guard token.issuedAt <= now + skew else {
      throw TokenRejection(.issuedInFuture, "iat is in the future")
    }
    guard token.authTime <= now + skew else {
      throw TokenRejection(.issuedInFuture, "auth_time is in the future")
    }
    guard token.expiresAt > now - skew else {
      throw TokenRejection(.expired, "exp has passed")
    }
    try Self.checkTimesAgree(token)
    return FirebaseTokenClaims(
      claims: claims, userID: subject,
      issuedAt: Date(timeIntervalSince1970: token.issuedAt),
      expiresAt: Date(timeIntervalSince1970: token.expiresAt),
      authTime: Date(timeIntervalSince1970: token.authTime))
  }

  /// Step 9: `exp` after `iat`, a believable `exp - iat`, `auth_time` not after `iat`.
  /// - Throws: `inconsistentTimes`; the detail quotes no claim value.
  static func checkTimesAgree(_ token: ParsedToken) throws(TokenRejection) {
    guard token.expiresAt > token.issuedAt else {
      throw TokenRejection(.inconsistentTimes, "exp is not after iat")
    }
    if let problem = TokenLifetime.problem(token.expiresAt - token.issuedAt) {
      throw TokenRejection(.inconsistentTimes, "the lifetime exp - iat \(problem)")
    }
    guard token.authTime <= token.issuedAt else {
      throw TokenRejection(.inconsistentTimes, "auth_time is after iat")
    }
  }
}
