import BackendHTTP
import Foundation
import UserBackendKit

extension FirebaseTokenVerifier.Configuration {
  /// The largest ``clockSkew`` accepted, in seconds: one hour, the life of a Firebase ID
  /// token. A larger skew would accept tokens that expired longer ago than they were
  /// ever valid.
  public static let maximumClockSkew: TimeInterval = 3600

  /// Checks every setting, without any network call: ``projectID`` follows Google's rule
  /// for project IDs; ``certificatesURL`` is an absolute `http`/`https` URL with a host and
  /// passes `URLLoaderSupport.baseURLProblem` (port 1…65535, no user name or password, no
  /// query or fragment), and is `https` unless its host is loopback or
  /// ``acceptsUnsignedTokens`` is on; ``clockSkew`` is finite and in 0…``maximumClockSkew``;
  /// ``minimumRefetchInterval`` is finite and not negative.
  ///
  /// Each of these, unchecked, fails late or silently: a bad URL only as
  /// `certificatesUnavailable` on the first fetch; a project ID no token can carry as
  /// `wrongIssuer` for every token; a NaN skew refuses every token as `issuedInFuture`,
  /// an infinite one accepts every expired token; a NaN or infinite refetch interval never
  /// refetches after a key rotation.
  ///
  /// - Throws: ``TokenRejection`` with reason ``TokenRejectionReason/misconfigured`` and
  ///   ``TokenRejection/setting`` naming the first property at fault, in the order above.
  ///   The message never repeats the value (a URL may carry a password).
  public func validate() throws(TokenRejection) {
    if let problem = FirebaseProjectID.problem(with: projectID) {
      throw TokenRejection(misconfigured: "projectID", problem)
    }
    if let problem = Self.problem(withCertificatesURL: certificatesURL)
      ?? plainHTTPProblem(withCertificatesURL: certificatesURL)
    {
      throw TokenRejection(misconfigured: "certificatesURL", problem)
    }
    guard clockSkew.isFinite, (0...Self.maximumClockSkew).contains(clockSkew) else {
      throw TokenRejection(
        misconfigured: "clockSkew",
        "must be a finite number of seconds in 0…\(Int(Self.maximumClockSkew)) (an ID token "
          + "lives one hour)")
    }
    guard minimumRefetchInterval.isFinite, minimumRefetchInterval >= 0 else {
      throw TokenRejection(
        misconfigured: "minimumRefetchInterval",
        "must be a finite, non-negative number of seconds")
    }
  }

  /// Why `url` cannot be fetched as the certificate document, or `nil`.
  static func problem(withCertificatesURL url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return "must be an http or https URL"
    }
    guard let host = url.host, !host.isEmpty else { return "must name a host" }
    return URLLoaderSupport.baseURLProblem(url)
  }

  /// Why fetching the certificates from `url` in plain HTTP is unsafe, or `nil`: anyone on
  /// the path could swap the signing keys and have forged tokens accepted. Plain HTTP is
  /// allowed to a loopback host, and when ``acceptsUnsignedTokens`` is on (the Auth
  /// Emulator, possibly in another container: unsigned tokens pass anyway).
  func plainHTTPProblem(withCertificatesURL url: URL) -> String? {
    guard url.scheme?.lowercased() == "http", !acceptsUnsignedTokens,
      !URLLoaderSupport.isLoopback(host: url.host ?? "")
    else { return nil }
    return "must be https unless the host is loopback (plain HTTP would let anyone on the "
      + "path swap the signing keys)"
  }
}
