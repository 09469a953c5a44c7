import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension URLLoaderSupport {
  /// `true` when `host` names a machine on a private network rather than the internet: a
  /// loopback host (``isLoopback(host:)``); an IPv4 address in 10.0.0.0/8, 172.16.0.0/12,
  /// 192.168.0.0/16 (RFC 1918) or 169.254.0.0/16 (link-local); an IPv6 address in fc00::/7
  /// (unique local) or fe80::/10 (link-local); a single-label name (`emulator`, as a
  /// container network names its services); or a name under `.internal`, `.local`, `.lan`
  /// or `.home.arpa`. Case-insensitive, IPv6 with or without brackets; addresses are read
  /// by `inet_pton` (standard spellings only).
  ///
  /// The rule for a plain-HTTP NCMB base URL: the emulator reached from another container
  /// or machine of one's own network, never a public host.
  public static func isPrivateNetwork(host: String) -> Bool {
    if isLoopback(host: host) { return true }
    var bare = host.lowercased()
    if bare.hasPrefix("[") && bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
    var v4 = in_addr()
    if inet_pton(AF_INET, bare, &v4) == 1 {
      let address = UInt32(bigEndian: v4.s_addr)
      return address >> 24 == 10 || address >> 20 == 0xAC1 || address >> 16 == 0xC0A8
        || address >> 16 == 0xA9FE
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, bare, &v6) == 1 {
      let bytes = withUnsafeBytes(of: v6) { Array($0) }
      return bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
    }
    guard !bare.isEmpty, !bare.contains(":") else { return false }
    // `10.1`, `0x08080808`: an address to libcurl, not a private name.
    if isNumericHost(bare) { return false }
    if !bare.contains(".") { return true }
    return [".internal", ".local", ".lan", ".home.arpa"].contains { bare.hasSuffix($0) }
  }
}
