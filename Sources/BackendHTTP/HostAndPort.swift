import Foundation

/// A `host:port` setting, as `FIREBASE_AUTH_EMULATOR_HOST` and
/// `FIRESTORE_EMULATOR_HOST` write one: `127.0.0.1:9099`, `localhost:9099`,
/// `emulator_1:9099` (a container name), `[::1]:9099`.
///
/// The one reading of such a setting for every layer (the Firebase adapter's configuration,
/// the `baas` configuration, session namespaces, cassette provenance), so a value one layer
/// accepts is never refused or read differently by another.
public struct HostAndPort: Sendable, Hashable {
  /// The host without brackets (`::1` for `[::1]:9099`), in lower case.
  public let host: String
  /// The TCP port, 1…65535.
  public let port: Int

  /// `host:port` with an IPv6 host in brackets, as a URL's authority writes it.
  public var authority: String {
    (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
  }

  /// Reads `text` (surrounding spaces, tabs and line breaks are ignored).
  ///
  /// The host is a host name (ASCII letters, digits, `-` and `_` in non-empty dot-separated
  /// labels, at most 253 characters), an IPv4 address in its standard spelling, or an IPv6
  /// address in brackets. The port is ``URLLoaderSupport/portNumber(_:)``'s: 1…65535
  /// written in plain digits without leading zeros.
  ///
  /// - Throws: ``HostAndPort/Problem`` whose reason says which part is wrong and how to
  ///   write it (an IPv6 address without brackets, a scheme or path, a bad port, …).
  public init(parsing text: String) throws(Problem) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let example = "host:port such as 127.0.0.1:9099 (no scheme, no path)"
    guard !trimmed.contains("/") else { throw Problem("must be \(example)") }
    guard let colon = trimmed.lastIndex(of: ":") else { throw Problem("must be \(example)") }
    var host = String(trimmed[..<colon])
    let portText = trimmed[trimmed.index(after: colon)...]
    if host.hasPrefix("[") && host.hasSuffix("]") {
      host = String(host.dropFirst().dropLast())
      guard let standard = URLLoaderSupport.standardIPv6(host) else {
        throw Problem("has no valid IPv6 address in its brackets")
      }
      // One spelling per address (as for IPv4): libcurl sends the standard form, and
      // two spellings of one server would name two session files.
      guard standard == host.lowercased() else {
        throw Problem("writes an IPv6 address in a long form; use [\(standard)]")
      }
    } else if host.contains(":") {
      // Repeated only when it is an address: `u:p@127.0.0.1:1` must not echo `p`.
      guard URLLoaderSupport.standardIPv6(host) != nil else { throw Problem(Self.hostNameRule) }
      throw Problem(
        "writes an IPv6 address without brackets; write it as [\(host)]:\(portText)")
    } else {
      guard Self.isHostName(host) else { throw Problem(Self.hostNameRule) }
      if let spelling = URLLoaderSupport.addressSpellingProblem(host: host) {
        throw Problem(spelling)
      }
    }
    guard let port = URLLoaderSupport.portNumber(portText) else {
      throw Problem(URLLoaderSupport.portReason)
    }
    // Host names and IPv6 hex digits ignore case: one spelling, lower case, for every
    // reader (URLs, session file names).
    self.host = host.lowercased()
    self.port = port
  }

  /// What a host must be, the reason for any other.
  static let hostNameRule =
    "must name its host by a host name (letters, digits, '-', '_' and dots), an IPv4 "
    + "address or an IPv6 address in brackets, such as 127.0.0.1:9099"

  /// Why a `host:port` setting was refused.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to write it; never contains the value itself beyond its host.
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
  }

  private static func isHostName(_ host: String) -> Bool {
    let bytes = host.utf8
    guard !bytes.isEmpty, bytes.count <= 253 else { return false }
    var labelLength = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "."):
        guard labelLength > 0 else { return false }
        labelLength = 0
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        labelLength += 1
        guard labelLength <= 63 else { return false }
      default:
        return false
      }
    }
    return labelLength > 0
  }
}

extension URLLoaderSupport {
  /// A TCP port written as text, in a URL or a setting: 1…65535 in ASCII digits with no
  /// sign, no spaces and no leading zeros (`0080` is refused rather than read as 80 by one
  /// reader and as octal or an error by another).
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
}
