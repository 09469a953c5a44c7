import Foundation

// The port rule of the URLs this module checks (the photo URL): the same rule as
// `BackendHTTP.URLLoaderSupport.portNumber(_:)`, which reads every port a setting or a
// request names (base URLs, emulator hosts, `baas emulator --port`, the emulator's Host
// field). The two modules do not depend on each other, so the rule is written in both and
// a test (BackendHTTPTests, which sees both) checks that they agree on every input.
extension CredentialValidation {
  /// Why a port is refused, for error messages naming the field.
  public static let portRule =
    "has a port that is not a number from 1 to 65535 written without leading zeros (an "
    + "empty port after ':' is refused too)"

  /// A TCP port written as text: 1…65535 in ASCII digits with no sign, no spaces and no
  /// leading zeros (`065` is refused rather than read as 65 by one reader and as octal or
  /// an error by another; an empty port is refused).
  ///
  /// - Returns: the port, or `nil` when `text` is not one.
  public static func portNumber(_ text: some StringProtocol) -> Int? {
    let bytes = Array(text.utf8)
    guard (1...5).contains(bytes.count), bytes.first != UInt8(ascii: "0"),
      bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    let port = bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    return port <= 65_535 ? port : nil
  }

  /// `true` when the absolute URL `text` names no port, or one ``portNumber(_:)`` reads.
  /// The authority is read from the text (after `scheme://`, up to `/`, `?` or `#`; after
  /// any `user@`; after an IPv6 literal's `]`).
  static func authorityPortIsUsable(_ text: String) -> Bool {
    guard let schemeEnd = text.range(of: "://") else { return true }
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
}
