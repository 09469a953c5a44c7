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
  /// query or fragment), and is `https` unless its host is loopback or, with
  /// ``acceptsUnsignedTokens`` on, a private-network host (the rule of every emulator host,
  /// `BackendHTTP.HostScope`: not public, link-local or 0.0.0.0); ``clockSkew`` is finite
  /// and in 0…``maximumClockSkew``;
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
  /// Emulator, possibly in another container: unsigned tokens pass anyway) to a
  /// private-network host, as every emulator host setting: an emulator on the internet,
  /// a link-local address or 0.0.0.0 is a misconfiguration, never a local emulator.
  func plainHTTPProblem(withCertificatesURL url: URL) -> String? {
    guard url.scheme?.lowercased() == "http" else { return nil }
    let host = url.host ?? ""
    if URLLoaderSupport.isLoopback(host: host) { return nil }
    guard acceptsUnsignedTokens else {
      return "must be https unless the host is loopback (plain HTTP would let anyone on the "
        + "path swap the signing keys)"
    }
    guard let refusal = HostScope(host: host).refusal(host: host) else { return nil }
    return "must be https unless its host is a loopback or private-network emulator: in "
      + "emulator mode (unsigned tokens accepted) its host \(refusal)"
  }
}

extension FirebaseTokenVerifier.Configuration {
  /// A configuration for the Auth Emulator at `emulatorHost`, as the Admin SDKs build one
  /// when `FIREBASE_AUTH_EMULATOR_HOST` is set: unsigned tokens accepted
  /// (``acceptsUnsignedTokens``), certificates (for tokens the emulator signs) fetched from
  /// `http://<emulatorHost>` + ``FirebaseTokenVerifier/certificatesPath``.
  ///
  /// - Parameters:
  ///   - projectID: the expected `aud`.
  ///   - emulatorHost: `host:port` (`127.0.0.1:9099`, `[::1]:9099`), read by
  ///     `BackendHTTP.HostAndPort`, the rule of every emulator host setting.
  /// - Throws: ``TokenRejection`` `misconfigured` with ``TokenRejection/setting``
  ///   `emulatorHost` when it is not `host:port`, or its host is neither loopback nor on a
  ///   private network (`BackendHTTP.HostScope`: a public host, a link-local address, the
  ///   unspecified 0.0.0.0): trusting unsigned tokens is for a local emulator only.
  public static func authEmulator(projectID: String, emulatorHost: String)
    throws(TokenRejection) -> Self
  {
    let address: HostAndPort
    do {
      address = try HostAndPort(parsing: emulatorHost)
    } catch {
      throw TokenRejection(misconfigured: "emulatorHost", error.reason)
    }
    if let refusal = HostScope(host: address.host).refusal(host: address.host) {
      throw TokenRejection(
        misconfigured: "emulatorHost",
        "\(refusal); unsigned tokens are trusted and certificates fetched in plain HTTP only "
          + "from a loopback or private-network Auth emulator")
    }
    guard
      let url = URL(string: "http://\(address.authority)\(FirebaseTokenVerifier.certificatesPath)")
    else {
      throw TokenRejection(misconfigured: "emulatorHost", "does not form a URL")
    }
    return Self(projectID: projectID, certificatesURL: url, acceptsUnsignedTokens: true)
  }
}
