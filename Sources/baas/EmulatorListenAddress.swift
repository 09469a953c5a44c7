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
///
/// Every spelling of an address is read as that address, so every spelling of "every
/// address" is the wildcard: `0.0.0.0`, `::`, `[::]`, `0:0:0:0:0:0:0:0`, `::0.0.0.0`. An
/// IPv4-mapped address (`::ffff:0.0.0.0`, `::ffff:127.0.0.1`) is its IPv4 address: the
/// kernel binds a mapped address as the IPv4 one (the socket takes IPv4 clients only, so
/// `[::1]` would not reach it), and the IPv4 form is what clients can use. A number in
/// another form than dotted decimal (`0`, `127.1`, `0x7f.0.0.1`, `00.0.0.0`), which
/// libcurl would read as an IPv4 address but `inet_pton` does not, is refused with a
/// message that says to write the dotted-decimal form (``refusal(_:)``): the printed
/// exports would otherwise name an address in a spelling not every client reads alike.
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
    // IPv4-mapped (`::ffff:a.b.c.d`, how inet_ntop writes every mapped address): the IPv4
    // address.
    if standard.hasPrefix("::ffff:"), inet_pton(AF_INET, String(standard.dropFirst(7)), &v4) == 1 {
      let mapped = String(standard.dropFirst(7))
      self.init(
        bindHost: mapped, isIPv6: false, isLoopback: URLLoaderSupport.isLoopback(host: mapped))
      return
    }
    bare = standard
    self.init(bindHost: bare, isIPv6: true, isLoopback: URLLoaderSupport.isLoopback(host: bare))
  }

  /// The usage error for a `--host` that ``init(_:)`` refused.
  static func refusal(_ text: String) -> String {
    let labels = text.lowercased().split(separator: ".", omittingEmptySubsequences: false)
    let numeric = labels.allSatisfy { label in
      !label.isEmpty
        && (label.allSatisfy(\.isNumber)
          || (label.hasPrefix("0x") && label.dropFirst(2).allSatisfy(\.isHexDigit)))
    }
    if numeric {
      return "--host \(text) is a number some programs read as an IPv4 address; write the "
        + "address in dotted-decimal form, four numbers 0-255 without leading zeros such as "
        + "127.0.0.1 (or 0.0.0.0 for every address)"
    }
    return "--host must be an IP address such as 127.0.0.1 or ::1, or localhost (other host "
      + "names are not supported)"
  }

  private init(bindHost: String, isIPv6: Bool, isLoopback: Bool) {
    self.bindHost = bindHost
    self.isIPv6 = isIPv6
    self.isLoopback = isLoopback
  }
}
