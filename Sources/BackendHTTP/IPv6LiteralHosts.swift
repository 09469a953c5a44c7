import Foundation

/// What the platform's URL loader (used by ``URLSessionTransport``) can reach, so that
/// adapters can refuse an unusable setting up front instead of failing on every request.
public enum URLLoaderSupport {
  /// `false` on Linux: FoundationNetworking's URL loader fails every request to an IPv6
  /// literal host (`http://[::1]:9099/…`) with `URLError` -1000 ("unsupported URL"), while
  /// `localhost` resolving to `::1` works. `true` on Apple platforms.
  public static let acceptsIPv6LiteralHosts: Bool = {
    #if canImport(FoundationNetworking)
      false
    #else
      true
    #endif
  }()

  /// The reason given for a refused IPv6 literal.
  public static let ipv6LiteralReason =
    "IPv6 literals are not supported by the Linux URL loader; use 127.0.0.1 "
    + "(or localhost) instead"

  /// `true` when `host` is an IPv6 literal, with or without brackets (`::1`, `[fe80::1]`).
  /// Host names and IPv4 addresses never contain a colon.
  public static func isIPv6Literal(_ host: String) -> Bool {
    host.contains(":")
  }

  /// `true` when the URL loader cannot reach `host`: an IPv6 literal on a platform where
  /// ``acceptsIPv6LiteralHosts`` is `false`.
  public static func rejects(host: String) -> Bool {
    !acceptsIPv6LiteralHosts && isIPv6Literal(host)
  }

  /// `true` when `url` names no port or one a TCP connection can use (1…65535).
  /// `URL(string:)` accepts `http://host:99999/`; the loader then fails every request.
  public static func hasUsablePort(_ url: URL) -> Bool {
    url.port.map { (1...65_535).contains($0) } ?? true
  }

  /// The reason given for a refused port.
  public static let portReason = "the port must be between 1 and 65535"
}
