/// Why a Firebase ID token was refused: the first check that failed, in the order
/// ``FirebaseTokenVerifier`` makes them.
///
/// The raw values are the stable reason codes `baas token verify` prints.
public enum TokenRejectionReason: String, Sendable, Hashable, CaseIterable, Codable {
  /// Not three base64url segments with a JSON object header and claims, or a time claim
  /// (`iat`, `exp`, `auth_time`) missing or not a number.
  case malformed
  /// The header's `alg` is not `RS256` (`none` only in emulator mode; `HS256` never).
  case unsupportedAlgorithm
  /// The header's `kid` is missing or names no current certificate, even after one refetch.
  case unknownKeyID
  /// The RS256 signature does not verify with the certificate's public key.
  case badSignature
  /// `iss` is not `https://securetoken.google.com/<projectID>`.
  case wrongIssuer
  /// `aud` is not the project ID.
  case wrongAudience
  /// `exp` is not in the future (allowing the clock skew).
  case expired
  /// `iat` or `auth_time` is in the future (beyond the clock skew).
  case issuedInFuture
  /// The time claims contradict each other: `exp` is not after `iat`, the lifetime
  /// `exp - iat` is not one ``UserBackendKit/TokenLifetime`` believes (10 minutes to a
  /// year; Firebase issues one hour), or `auth_time` (the sign-in) is after `iat` (the
  /// token's issue). Checked after `expired` and `issuedInFuture`.
  case inconsistentTimes
  /// `sub` is missing, empty, longer than 128 characters, or `user_id` names another user.
  case invalidSubject
  /// The certificates could not be fetched or read (network, status, body), the answer
  /// holds no usable certificate, or the one published for the token's `kid` is unusable
  /// (other unusable entries are skipped).
  case certificatesUnavailable
  /// The verifier's own ``FirebaseTokenVerifier/Configuration`` is unusable (see
  /// ``FirebaseTokenVerifier/Configuration/validate()``): no token can pass, whatever it
  /// holds. A fault of the server, not of the client that sent the token;
  /// ``TokenRejection/setting`` names the field.
  case misconfigured
}

/// A refused token: the reason code and a one-line explanation. The explanation never
/// contains the token or any part of it (claims are not echoed either).
public struct TokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The first check that failed.
  public let reason: TokenRejectionReason
  /// What was wrong, e.g. `"the header's alg is HS256; only RS256 is accepted"`.
  public let detail: String
  /// For ``TokenRejectionReason/misconfigured``: the ``FirebaseTokenVerifier/Configuration``
  /// property at fault (`"projectID"`, `"certificatesURL"`, `"clockSkew"`,
  /// `"minimumRefetchInterval"`); `nil` for every other reason.
  public let setting: String?

  /// A rejection for `reason`, explained by `detail`.
  public init(_ reason: TokenRejectionReason, _ detail: String) {
    self.reason = reason
    self.detail = detail
    self.setting = nil
  }

  /// A ``TokenRejectionReason/misconfigured`` rejection: `setting` cannot be used because
  /// of `problem`. The detail reads `"<setting>: <problem>"`, as every setting error of the
  /// package does (`UserBackendError.misconfigured`, the `baas` configuration's errors):
  /// a problem that is a sentence of its own (`the port must be …`) reads right too.
  public init(misconfigured setting: String, _ problem: String) {
    self.reason = .misconfigured
    self.detail = "\(setting): \(problem)"
    self.setting = setting
  }

  /// `"<reason>: <detail>"`.
  public var description: String { "\(reason.rawValue): \(detail)" }
}
