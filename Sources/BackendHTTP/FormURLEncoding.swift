import Foundation

/// Percent-encoding for query strings and `application/x-www-form-urlencoded` bodies,
/// shared by the adapters, the emulator and the replay layer.
///
/// Encoding leaves only the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) as they
/// are and writes every other UTF-8 byte as `%XX` with upper-case hex (so `+`, `=`, `&`,
/// `/` and space in values are always escaped, a space as `%20`).
public enum FormURLEncoding {
  /// The RFC 3986 unreserved characters.
  public static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Percent-encodes everything but unreserved characters.
  public static func escape(_ text: String) -> String {
    // Text of unreserved characters only (path segments, keys, most values) is its own
    // encoding: skip Foundation's pass over it (`baas bench`, NCMB request signing).
    if text.utf8.allSatisfy(isUnreserved) { return text }
    return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  /// Whether `byte` is an unreserved ASCII character.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// `name=value&name=value` in the given order, each part escaped.
  public static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
  }

  /// Percent-decodes `text`, and `+` as a space when `plusIsSpace` (form bodies);
  /// malformed escapes are left as they are.
  public static func decode(_ text: some StringProtocol, plusIsSpace: Bool) -> String {
    let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : String(text)
    return spaced.removingPercentEncoding ?? spaced
  }

  /// The decoded `(name, value)` pairs of `name=value&…` text, in order; a pair without
  /// `=` has an empty value.
  public static func pairs(_ text: String, plusIsSpace: Bool) -> [(String, String)] {
    text.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = decode(parts[0], plusIsSpace: plusIsSpace)
      let value = parts.count > 1 ? decode(parts[1], plusIsSpace: plusIsSpace) : ""
      return (name, value)
    }
  }
}
