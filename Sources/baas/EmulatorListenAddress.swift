import BackendHTTP
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `baas emulator --host`: a numeric IPv4 or IPv6 address, or `localhost` (127.0.0.1).
///
/// IPv6 literals are written bare (`::1`) or in brackets (`[::1]`); the printed URLs and
/// exports put them in brackets (`http://[::1]:9099`, `FIREBASE_AUTH_EMULATOR_HOST=[::1]:9099`),
/// which the adapters accept and the default transport (libcurl on Linux) reaches. Host
/// names other than `localhost` are refused: the emulator binds the one address it is given
/// and prints it for clients, and a name could resolve to several.
struct EmulatorListenAddress: Equatable {
  /// The address to bind, without brackets (`127.0.0.1`, `::1`).
  let bindHost: String
  /// `true` for an IPv6 address.
  let isIPv6: Bool
  /// `true` for 127.0.0.0/8 and `::1` (``BackendHTTP/URLLoaderSupport/isLoopback(host:)``).
  let isLoopback: Bool

  /// The host as written in a URL or a `host:port` setting: `127.0.0.1`, `[::1]`.
  var urlHost: String { isIPv6 ? "[\(bindHost)]" : bindHost }

  /// `true` for the wildcard addresses `0.0.0.0` and `::` (every interface).
  var isWildcard: Bool { bindHost == "0.0.0.0" || bindHost == "::" }

  /// The host the printed URLs and exports name, as ``urlHost`` writes it: the bound
  /// address, or this machine's loopback for a wildcard bind (`0.0.0.0` → `127.0.0.1`,
  /// `::` → `[::1]`). A wildcard is an address to listen on, not one to connect to, and
  /// the NCMB adapter refuses plain HTTP to it.
  var clientURLHost: String {
    guard isWildcard else { return urlHost }
    return isIPv6 ? "[::1]" : "127.0.0.1"
  }

  /// Parses `--host`; `nil` when it is not an address this command accepts.
  init?(_ text: String) {
    if text.lowercased() == "localhost" {
      self.init(bindHost: "127.0.0.1", isIPv6: false, isLoopback: true)
      return
    }
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      self.init(bindHost: text, isIPv6: false, isLoopback: URLLoaderSupport.isLoopback(host: text))
      return
    }
    var bare = text
    if bare.hasPrefix("[") && bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
    // Printed in its standard form (`::1` for `0:0:0:0:0:0:0:1`): libcurl sends that form,
    // and an NCMB client signs the host as written in NCMB_BASE_URL.
    guard let standard = URLLoaderSupport.standardIPv6(bare) else { return nil }
    bare = standard
    self.init(bindHost: bare, isIPv6: true, isLoopback: URLLoaderSupport.isLoopback(host: bare))
  }

  private init(bindHost: String, isIPv6: Bool, isLoopback: Bool) {
    self.bindHost = bindHost
    self.isIPv6 = isIPv6
    self.isLoopback = isLoopback
  }
}
