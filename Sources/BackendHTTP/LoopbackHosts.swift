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
