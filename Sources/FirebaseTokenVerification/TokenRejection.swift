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
  /// `sub` is missing, empty, longer than 128 characters or different from `user_id`.
  case invalidSubject
  /// The certificates could not be fetched or read (network, status, body).
  case certificatesUnavailable
}

/// A refused token: the reason code and a one-line explanation. The explanation never
/// contains the token or any part of it (claims are not echoed either).
public struct TokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The first check that failed.
  public let reason: TokenRejectionReason
  /// What was wrong, e.g. `"the header's alg is HS256; only RS256 is accepted"`.
  public let detail: String

  /// A rejection for `reason`, explained by `detail`.
  public init(_ reason: TokenRejectionReason, _ detail: String) {
    self.reason = reason
    self.detail = detail
  }

  /// `"<reason>: <detail>"`.
  public var description: String { "\(reason.rawValue): \(detail)" }
}
