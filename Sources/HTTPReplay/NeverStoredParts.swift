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
///   into an `Authorization` header; it is not part of the request line. In a response's
///   `Location` (a redirect) it is a credential handed to the client, and removed too.
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

  /// The user information of the URL `text` (`user:password` before an `@` in the
  /// authority), read as text so that a URL that does not parse is handled too; `nil` when
  /// there is none. The authority follows `://`, or `//` at the start (a scheme-relative
  /// reference).
  static func userInformationRange(in text: String) -> Range<String.Index>? {
    let start: String.Index
    if let scheme = text.range(of: "://") {
      start = scheme.upperBound
    } else if text.hasPrefix("//") {
      start = text.index(text.startIndex, offsetBy: 2)
    } else {
      return nil
    }
    let end = text[start...].firstIndex { "/?#".contains($0) } ?? text.endIndex
    guard let at = text[start..<end].lastIndex(of: "@") else { return nil }
    return start..<text.index(after: at)
  }

  /// `text` (a `Location` value) without its user information, when it has some.
  static func strippingUserInformation(_ text: String) -> String {
    guard let range = userInformationRange(in: text) else { return text }
    var result = text
    result.removeSubrange(range)
    return result
  }

  /// What in the request URL `text` must not be stored, as finding messages (never the
  /// value): user information, a fragment. Read as text, so a URL that does not parse is
  /// checked too: an `@` in the authority, any `#` (a literal `#` is always the fragment's).
  static func urlProblems(_ text: String) -> [String] {
    var problems: [String] = []
    if userInformationRange(in: text) != nil {
      problems.append("user information in the URL (a credential; never stored)")
    }
    if text.contains("#") {
      problems.append("a URL fragment (never sent to a server; never stored)")
    }
    return problems
  }
}
