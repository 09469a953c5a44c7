import Foundation

/// What the platform's URL loader (used by ``URLSessionTransport``) can reach, and the
/// checks every adapter's configuration shares for a base URL.
public enum URLLoaderSupport {
  /// `false` on Linux: FoundationNetworking's URL loader fails every request to an IPv6
  /// literal host (`http://[::1]:9099/…`) with `URLError` -1000 ("unsupported URL"), while
  /// `localhost` resolving to `::1` works. `true` on Apple platforms.
  ///
  /// Only ``URLSessionTransport`` is limited: ``CurlTransport`` (what
  /// ``NetworkTransport/standard(defaultTimeout:maximumResponseBodyBytes:)`` picks on Linux)
  /// reaches IPv6 literals, so the adapters' configurations accept them and
  /// ``URLSessionTransport`` itself refuses such a request before connecting.
  public static let acceptsIPv6LiteralHosts: Bool = {
    #if canImport(FoundationNetworking)
      false
    #else
      true
    #endif
  }()

  /// Why ``URLSessionTransport`` refuses an IPv6 literal host on Linux, and what to use
  /// instead: the reason of its ``HTTPTransportError/invalidRequest(reason:)``.
  public static let ipv6LiteralReason =
    "URLSessionTransport cannot reach an IPv6 literal host on Linux (FoundationNetworking "
    + "fails it as an unsupported URL); use 127.0.0.1 or localhost instead, or CurlTransport "
    + "(NetworkTransport.standard(), the default transport on Linux), which reaches it"

  /// `true` when `host` is an IPv6 literal, with or without brackets (`::1`, `[fe80::1]`).
  /// Host names and IPv4 addresses never contain a colon.
  public static func isIPv6Literal(_ host: String) -> Bool {
    host.contains(":")
  }

  /// `true` when ``URLSessionTransport`` cannot reach `host`: an IPv6 literal on a platform
  /// where ``acceptsIPv6LiteralHosts`` is `false`. Other transports may reach it.
  public static func rejects(host: String) -> Bool {
    !acceptsIPv6LiteralHosts && isIPv6Literal(host)
  }

  /// `true` when `url` names no port or one a TCP connection can use, as
  /// ``portNumber(_:)`` reads it (1…65535, no leading zeros). Read from the URL's text: `URL.port` is `nil` both for no port and for one too large to parse
  /// (`:18446744073709551617`), and `URL(string:)` also takes `:99999` and an empty `:`.
  public static func hasUsablePort(_ url: URL) -> Bool {
    let text = url.absoluteString
    guard let schemeEnd = text.range(of: "://") else { return url.port.map(usable) ?? true }
    var authority = text[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
    if let at = authority.lastIndex(of: "@") {
      authority = authority[authority.index(after: at)...]
    }
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      authority = authority[authority.index(after: close)...]
    }
    guard let colon = authority.firstIndex(of: ":") else { return true }
    return portNumber(authority[authority.index(after: colon)...]) != nil
  }

  private static func usable(_ port: Int) -> Bool { (1...65_535).contains(port) }

  /// The reason given for a refused port (see ``portNumber(_:)``).
  public static let portReason =
    "the port must be a number from 1 to 65535, written without leading zeros"

  /// Why `url` cannot be a service's base address, or `nil`: a port outside 1…65535 (or
  /// unparseable), a percent-encoded host, a user name or password (which the network transports refuse, see
  /// ``HTTPRequest/checkSendable()``), a query or a fragment (a path appended to
  /// the base would land inside it, and a fragment is never sent). Checked by every
  /// adapter's configuration.
  public static func baseURLProblem(_ url: URL) -> String? {
    guard hasUsablePort(url) else { return portReason }
    // `URL.host` decodes `%xx`, so checks would judge another host than the one sent
    // (`example.com%00.internal`); no service's host needs an escape (IPv6 zone IDs,
    // `%25eth0`, are refused with them).
    if URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedHost?.contains("%")
      == true
    {
      return "must not percent-encode its host"
    }
    guard url.user == nil, url.password == nil else {
      return "must not carry a user name or password"
    }
    guard url.query == nil, url.fragment == nil else {
      return "must not have a query or a fragment"
    }
    return nil
  }
}
