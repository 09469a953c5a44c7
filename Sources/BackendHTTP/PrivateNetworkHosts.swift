import Foundation

extension URLLoaderSupport {
  /// `true` when secrets may go to `host` in plain HTTP: a loopback host
  /// (``isLoopback(host:)``) or one on a private network rather than the internet, an IPv4
  /// address in 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 (RFC 1918), an IPv6 address in
  /// fc00::/7 (unique local), either also IPv4-mapped (`::ffff:10.0.0.5`); a single-label
  /// name (`emulator`, as a container network names its services); or a name under
  /// `.internal`, `.local`, `.lan` or `.home.arpa`. Not link-local addresses
  /// (169.254.0.0/16, where cloud metadata services answer, and fe80::/10), nor the
  /// unspecified address (0.0.0.0, `::`). Case-insensitive, IPv6 with or without brackets;
  /// addresses are read by `inet_pton` (standard spellings only). ``HostScope`` holds the
  /// rule and says why a host is refused.
  ///
  /// The rule for every emulator host reached in plain HTTP with secrets: the Auth and
  /// Firestore emulator hosts, a plain-HTTP NCMB base URL, the token verifier's emulator
  /// mode; the emulator reached from another container or machine of one's own network,
  /// never a public host.
  public static func isPrivateNetwork(host: String) -> Bool {
    HostScope(host: host).allowsPlainHTTPSecrets
  }
}
