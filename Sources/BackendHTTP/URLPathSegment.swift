import Foundation

/// One segment of a URL path, percent-encoded: RFC 3986's unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`) are kept, every other byte of the UTF-8 text is `%XX`, so a
/// segment can never add a `/`, `?` or `#` to the path it goes into.
package enum URLPathSegment {
  private static let unreserved: CharacterSet = {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return allowed
  }()

  /// `segment` percent-encoded (unchanged in the impossible case that encoding fails).
  package static func encoded(_ segment: String) -> String {
    segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
  }
}
