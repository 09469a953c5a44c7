import BackendHTTP
import Foundation

extension NCMBSignature {
  /// Percent-encodes `text` for a query key, a query value or a path segment: every UTF-8
  /// byte outside the RFC 3986 unreserved set (`A-Z a-z 0-9 - . _ ~`) becomes `%XX` with
  /// upper-case hex; a space becomes `%20` (never `+`).
  ///
  /// This reproduces the official signature example exactly (`docs/wire/ncmb.md` §2,
  /// "Percent-encoding"): `{"testKey":"testValue"}` → `%7B%22testKey%22%3A%22testValue%22%7D`.
  public static func percentEncode(_ text: String) -> String {
    FormURLEncoding.escape(text)
  }

  /// The percent-encoded query for `items`, in the given order: `key=value` pairs (just
  /// `key` when the value is `nil`) joined by `&`, each part encoded with
  /// ``percentEncode(_:)``. Put the result on the URL unchanged (for example through
  /// `URLComponents.percentEncodedQuery`) so the wire bytes equal the signed bytes.
  ///
  /// - Returns: the query without `?`; an empty string for no items.
  public static func encodeQuery(_ items: [URLQueryItem]) -> String {
    items.map { item in
      let name = percentEncode(item.name)
      guard let value = item.value else { return name }
      return name + "=" + percentEncode(value)
    }.joined(separator: "&")
  }
}
