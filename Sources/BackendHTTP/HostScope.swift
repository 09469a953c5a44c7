import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a host is, for the one decision every layer makes the same way: may secrets (an
/// API key, a password, an ID token, a signed request) go to it in plain HTTP?
///
/// Only to ``loopback`` and ``privateNetwork`` (``allowsPlainHTTPSecrets``): an emulator on
/// this machine or on one's own network. Used for `FIREBASE_AUTH_EMULATOR_HOST`,
/// `FIRESTORE_EMULATOR_HOST` with production Auth, a plain-HTTP NCMB base URL and the token
/// verifier's emulator mode (``URLLoaderSupport/isPrivateNetwork(host:)``).
///
/// Decisions:
/// - Link-local addresses (169.254.0.0/16, fe80::/10) are not a private network: cloud
///   instance metadata services answer at 169.254.169.254 (and fd00:ec2::254), and a
///   link-local neighbour is whoever shares the segment; no emulator is set up there.
/// - The unspecified address (0.0.0.0, `::`) is what a server listens on, not a machine to
///   connect to (Linux happens to route it to this machine, other systems refuse it); it
///   gets its own reason instead of being called a public host.
/// - An IPv4-mapped IPv6 address (`::ffff:10.0.0.5`) is judged as its IPv4 address.
/// - A numeric host in another spelling than four decimal numbers (`2852039166`,
///   `0xa9fea9fe`, `169.254.43518`) is an address to libcurl but is not read here: it is
///   ``nonStandardAddress`` and refused, with ``URLLoaderSupport/addressSpellingProblem(host:)``.
/// - A name ending in a dot (`ncmb.internal.`) is the same DNS name without it; a
///   single-label name with one (`emulator.`) is a top-level domain, looked up without
///   the search domains a container network relies on, so it is public. An address
///   followed by a dot (`10.0.0.5.`) is a name to the resolver, never private; link-local
///   and unspecified ones keep their own reason.
public enum HostScope: Sendable, Hashable {
  /// This machine: ``URLLoaderSupport/isLoopback(host:)``.
  case loopback
  /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918), fc00::/7 (unique local), a
  /// single-label name (`emulator`, as a container network names its services), or a name
  /// under `.internal`, `.local`, `.lan` or `.home.arpa`.
  case privateNetwork
  /// 169.254.0.0/16 or fe80::/10.
  case linkLocal
  /// 0.0.0.0 or `::` (also `::ffff:0.0.0.0`).
  case unspecified
  /// A numeric host not written as four decimal numbers (nor as an IPv6 literal).
  case nonStandardAddress
  /// Anything else: the internet.
  case publicHost

  /// The scope of `host` (a URL's host or a `host:port` setting's host), case-insensitive,
  /// IPv6 with or without brackets. Addresses are read by `inet_pton` (standard spellings).
  public init(host: String) {
    var bare = host.lowercased()
    if bare.hasPrefix("[") && bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
    if URLLoaderSupport.isLoopback(host: bare) {
      self = .loopback
    } else if let scope = Self.address(bare) {
      self = scope
    } else if bare.isEmpty || bare.contains(":") || bare.hasPrefix(".") {
      self = .publicHost
    } else if bare.hasSuffix(".") {
      let name = String(bare.dropLast())
      switch Self.address(name) {
      case .linkLocal?: self = .linkLocal
      case .unspecified?: self = .unspecified
      case _?: self = .publicHost
      case nil:
        let named = HostScope(host: name)
        self = named == .privateNetwork && name.contains(".") ? .privateNetwork : .publicHost
      }
    } else if URLLoaderSupport.isNumericHost(bare) {
      self = .nonStandardAddress
    } else if !bare.contains(".") {
      self = .privateNetwork
    } else {
      let suffixes = [".internal", ".local", ".lan", ".home.arpa"]
      self = suffixes.contains { bare.hasSuffix($0) } ? .privateNetwork : .publicHost
    }
  }

  /// `true` for ``loopback`` and ``privateNetwork``: the only hosts secrets may go to in
  /// plain HTTP.
  public var allowsPlainHTTPSecrets: Bool { self == .loopback || self == .privateNetwork }

  /// Why `host` is not a loopback or private-network host, as a phrase that follows the
  /// host's name (`"is a public host"`), or `nil` when it is one.
  public func refusal(host: String) -> String? {
    switch self {
    case .loopback, .privateNetwork:
      return nil
    case .linkLocal:
      return "is a link-local address (169.254.0.0/16 or fe80::/10, where cloud metadata "
        + "services answer), not a private network"
    case .unspecified:
      return "is the unspecified address (0.0.0.0 or ::), which a server listens on but "
        + "which names no machine to connect to; use 127.0.0.1, [::1] or the emulator's "
        + "own address"
    case .nonStandardAddress:
      return URLLoaderSupport.addressSpellingProblem(host: host)
        ?? "writes an IP address in a non-standard form"
    case .publicHost:
      return "is a public host"
    }
  }

  /// The scope of an IPv4 or IPv6 address in its standard spelling, or `nil` when `bare`
  /// (no brackets, lower case) is not one. Loopback was decided before.
  private static func address(_ bare: String) -> HostScope? {
    var v4 = in_addr()
    if inet_pton(AF_INET, bare, &v4) == 1 { return ipv4(UInt32(bigEndian: v4.s_addr)) }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, bare, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
      let mapped = bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      if mapped >> 24 == 127 { return .loopback }
      return ipv4(mapped)
    }
    if bytes[0] & 0xFE == 0xFC { return .privateNetwork }
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
    return .publicHost
  }

  private static func ipv4(_ address: UInt32) -> HostScope {
    if address == 0 { return .unspecified }
    if address >> 24 == 127 { return .loopback }
    if address >> 24 == 10 || address >> 20 == 0xAC1 || address >> 16 == 0xC0A8 {
      return .privateNetwork
    }
    if address >> 16 == 0xA9FE { return .linkLocal }
    return .publicHost
  }
}
