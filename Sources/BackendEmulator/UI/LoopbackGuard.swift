import BackendHTTP
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rule that keeps the emulator's web page and its admin endpoints local.
///
/// A *guarded* request is one for the page (`/`, `/ui/…`), an emulator-only endpoint
/// (`/emulator/…`) or any request with admin rights (`Authorization: Bearer owner`). A
/// guarded request is served only when
/// - its `Host` field names a loopback host: `localhost`, an IPv4 address in
///   `127.0.0.0/8` or `[::1]`, with any port. A web page on another site that re-binds its
///   DNS name to 127.0.0.1 still sends its own name as `Host`, so it is refused
///   (DNS rebinding);
/// - its `Origin` field, when present, is an `http`/`https` origin on such a host. Browsers
///   send `Origin` on cross-origin requests, so another site's script cannot drive an
///   admin action through the user's browser; curl and the page itself (same origin) pass.
///
/// Anything else gets ``forbidden(_:)`` before any work is done. A request without a
/// `Host` field comes from the in-process ``EmulatorTransport`` (no socket, no browser) or
/// from an HTTP/1.0 client without one, and is let through.
///
/// Guarded answers never carry CORS fields (`Access-Control-Allow-Origin`), so no other
/// origin can read them.
enum LoopbackGuard {
  /// Whether `request` is a page, emulator-only or admin request.
  static func isGuarded(_ request: HTTPRequest) -> Bool {
    let path = request.decodedPath
    return path == "/" || path.hasPrefix("/ui/") || path.hasPrefix("/emulator/")
      || isAdmin(request)
  }

  /// Whether `request` claims admin rights as the Firebase emulators accept them:
  /// `Authorization: Bearer owner`.
  static func isAdmin(_ request: HTTPRequest) -> Bool {
    guard let value = request.headerFields["Authorization"] else { return false }
    let parts = value.split(separator: " ", omittingEmptySubsequences: true)
    return parts.count == 2 && parts[0].lowercased() == "bearer" && parts[1] == "owner"
  }

  /// `nil` when `request` may be served, else the reason to refuse it.
  static func refusal(_ request: HTTPRequest) -> String? {
    let hosts = request.headerFields.values(for: "Host")
    if hosts.count > 1 { return "more than one Host field" }
    if let host = hosts.first, !isLoopback(authority: host) {
      return "the Host field must name a loopback address (localhost, 127.0.0.1, [::1])"
    }
    if let origin = request.headerFields["Origin"], !isLoopback(origin: origin) {
      return "cross-origin requests are not allowed"
    }
    return nil
  }

  /// The `403` answer: a short plain text, no CORS fields.
  static func forbidden(_ reason: String) -> HTTPResponse {
    HTTPResponse(
      status: 403,
      headerFields: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
      body: Data(
        ("403 Forbidden: \(reason). The emulator's page and admin endpoints answer only "
          + "on loopback.\n").utf8))
  }

  /// Whether `authority` (`host` or `host:port`, as in a `Host` field) names loopback, by
  /// the package's one rule (``BackendHTTP/URLLoaderSupport/isLoopback(host:)``).
  static func isLoopback(authority: String) -> Bool {
    let text = authority.trimmingCharacters(in: .whitespaces)
    let host: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return false }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || isPort(rest) else { return false }
      return URLLoaderSupport.isLoopback(host: "[" + host + "]")
    }
    if let colon = text.firstIndex(of: ":") {
      host = text[..<colon]
      guard isPort(text[colon...]) else { return false }
    } else {
      host = Substring(text)
    }
    return URLLoaderSupport.isLoopback(host: String(host))
  }

  /// Whether `origin` (`scheme://host[:port]`) is an `http` or `https` origin on loopback.
  static func isLoopback(origin: String) -> Bool {
    let lowered = origin.lowercased()
    for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
      return isLoopback(authority: String(origin.dropFirst(scheme.count)))
    }
    return false
  }

  /// `:` followed by a port the package's one rule reads
  /// (``BackendHTTP/URLLoaderSupport/portNumber(_:)``: 1…65535, no leading zeros).
  private static func isPort(_ text: Substring) -> Bool {
    guard text.first == ":" else { return false }
    return URLLoaderSupport.portNumber(text.dropFirst()) != nil
  }
}
