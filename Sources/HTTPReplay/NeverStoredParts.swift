import Foundation

/// Parts of an HTTP exchange that a cassette never holds, whatever its rules say: they
/// carry credentials, and replay needs none of them (docs/cassettes.md §5).
///
/// - Header fields `Cookie`, `Set-Cookie` (and the obsolete `Cookie2`, `Set-Cookie2`) and
///   `Proxy-Authorization`: a session cookie or a proxy's password is a credential, and
///   neither service reads cookies; proxy credentials are for the proxy, never seen by the
///   service. They are dropped, not aliased: an alias would keep the scheme and the cookie
///   names, which match nothing.
/// - User information in a request URL (`https://user:password@host/`): a client turns it
///   into an `Authorization` header; it is not part of the request line.
/// - A URL fragment (`#access_token=…`): it never leaves the client.
///
/// ``Redactor`` leaves them out (so recording and import never write them) and
/// ``DecodedLeakScan`` reports any it finds (a hand-written cassette, a HAR file).
enum NeverStoredParts {
  /// The header field names, lower-cased.
  static let headerNames: Set<String> = [
    "cookie", "set-cookie", "cookie2", "set-cookie2", "proxy-authorization",
  ]

  /// `true` when a header field called `name` (any case) is never stored.
  static func isNeverStoredHeader(_ name: String) -> Bool {
    headerNames.contains(name.lowercased())
  }

  /// `url` without user information and fragment.
  static func strippingURL(_ url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      components.percentEncodedUser != nil || components.percentEncodedPassword != nil
        || components.percentEncodedFragment != nil
    else { return url }
    components.percentEncodedUser = nil
    components.percentEncodedPassword = nil
    components.percentEncodedFragment = nil
    return components.url ?? url
  }

  /// What in the request URL `text` must not be stored, as finding messages (never the
  /// value): user information, a fragment. Read as text, so a URL that does not parse is
  /// checked too: an `@` in the authority, any `#` (a literal `#` is always the fragment's).
  static func urlProblems(_ text: String) -> [String] {
    let afterScheme = text.range(of: "://").map { text[$0.upperBound...] } ?? Substring(text)
    let authority = afterScheme.prefix { !"/?#".contains($0) }
    var problems: [String] = []
    if authority.contains("@") {
      problems.append("user information in the URL (a credential; never stored)")
    }
    if text.contains("#") {
      problems.append("a URL fragment (never sent to a server; never stored)")
    }
    return problems
  }
}
