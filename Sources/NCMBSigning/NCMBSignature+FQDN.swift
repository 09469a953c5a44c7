import Foundation
import UserBackendKit

extension NCMBSignature {
  /// The longest FQDN accepted, in characters (the DNS limit for a name in text form).
  public static let maximumFQDNLength = IdentifierCanonicalization.maximumDomainLength

  /// Why `fqdn` cannot be the host line of a string to sign, or `nil` when it can.
  ///
  /// A server signs its own host name, so a signature over anything else can never
  /// match. Accepted: dot-separated labels of 1…63 lower-case ASCII letters, digits and
  /// hyphens, neither starting nor ending with a hyphen, at most ``maximumFQDNLength``
  /// characters in all (`mbaas.api.nifcloud.com`, `localhost`, `127.0.0.1`; an
  /// internationalized name in its `xn--` form). Refused: an empty value, white space or
  /// control characters, a scheme, a user name, a port, a path, a query, upper-case or
  /// non-ASCII letters, underscores, an empty label (a leading, trailing or doubled dot),
  /// IPv6 literals.
  ///
  /// ``sign(request:applicationKey:clientKey:timestamp:fqdn:)`` does not call this (it
  /// never throws and signs whatever it is given): callers that take an FQDN from a user
  /// check it here first, as `baas ncmb sign --fqdn` does.
  ///
  /// - Returns: a reason that starts with "must" and names an example host, e.g.
  ///   `"must be a host name such as mbaas.api.nifcloud.com: …"`; `nil` for a valid FQDN.
  public static func fqdnProblem(_ fqdn: String) -> String? {
    let shape =
      "must be a host name such as \(defaultFQDN) or 127.0.0.1: dot-separated labels of "
      + "lower-case ASCII letters, digits and hyphens, without scheme, port, path or spaces"
    // The package's host-name rule (labels of 1–63 ASCII letters, digits and hyphens, no
    // hyphen at an end, 253 bytes at most), in lower case only.
    guard fqdn == fqdn.lowercased(), IdentifierCanonicalization.isUsableDomain(fqdn) else {
      return shape
    }
    return nil
  }
}
