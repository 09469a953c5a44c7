import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension URLLoaderSupport {
  /// `true` when `host` names this machine's loopback interface, so plain HTTP to it never
  /// leaves the machine: `localhost` and names under `.localhost` (RFC 6761 §6.3), an IPv4
  /// address in 127.0.0.0/8, or the IPv6 loopback `::1` (also IPv4-mapped
  /// `::ffff:127.x.y.z`); case-insensitive, IPv6 with or without brackets. Addresses are
  /// read by `inet_pton`, so only their standard spellings count: `127.1`, `0177.0.0.1`,
  /// `127.0.0.+1` and `127.evil.example` are not loopback.
  ///
  /// The one rule for every "plain HTTP only to loopback" check (adapter endpoints, the
  /// token verifier's certificates URL, cassette import).
  public static func isLoopback(host: String) -> Bool {
    var bare = host.lowercased()
    if bare.hasPrefix("[") && bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
    if bare == "localhost" || bare.hasSuffix(".localhost") { return true }
    var v4 = in_addr()
    if inet_pton(AF_INET, bare, &v4) == 1 {
      return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
    let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
    return mapped && bytes[12] == 127
  }
}

extension URLLoaderSupport {
  /// Why `host` (a URL's host, IPv6 with or without brackets) is an IP address written in a
  /// form other than its standard one, or `nil`: libcurl rewrites such a host before it
  /// sends it (`127.1` and `127.000.000.001` go out as `127.0.0.1`, `[0:0:0:0:0:0:0:1]` as
  /// `[::1]`), so anything signed over the host as written (NCMB's signature) would not match
  /// what the server sees. Host names are not addresses and pass; so do standard IPv4
  /// dotted quads and IPv6 in its shortest lower-case form (RFC 5952, as `inet_ntop` writes
  /// it).
  public static func addressSpellingProblem(host: String) -> String? {
    var bare = host
    let bracketed = bare.hasPrefix("[") && bare.hasSuffix("]")
    if bracketed { bare = String(bare.dropFirst().dropLast()) }
    if bracketed || bare.contains(":") {
      guard let standard = standardIPv6(bare) else { return "is not a valid IPv6 address" }
      return bare == standard ? nil : "writes an IPv6 address in a long form; use [\(standard)]"
    }
    guard isNumericHost(bare) else { return nil }
    var v4 = in_addr()
    guard inet_pton(AF_INET, bare, &v4) == 1 else {
      return "writes an IPv4 address in a short or padded form; use four decimal numbers "
        + "without leading zeros, such as 127.0.0.1"
    }
    return nil
  }
}

extension URLLoaderSupport {
  /// `address` (an IPv6 address without brackets) in its standard form, RFC 5952's
  /// shortest lower-case spelling as `inet_ntop` writes it (`::1` for `0:0:0:0:0:0:0:1`);
  /// `nil` when it is not an IPv6 address.
  public static func standardIPv6(_ address: String) -> String? {
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension URLLoaderSupport {
  /// `true` when every dot-separated label of `host` is a number as libcurl reads one
  /// (decimal, octal, `0x` hexadecimal: `127.1`, `0x08080808`): an IPv4 address to it,
  /// whatever the spelling, never a host name.
  static func isNumericHost(_ host: String) -> Bool {
    host.lowercased().split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
      label in
      !label.isEmpty
        && (label.allSatisfy(\.isASCIIDigitCharacter)
          || (label.hasPrefix("0x") && label.dropFirst(2).allSatisfy(\.isHexDigit)))
    }
  }
}

extension Character {
  /// `0`–`9` only.
  fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
