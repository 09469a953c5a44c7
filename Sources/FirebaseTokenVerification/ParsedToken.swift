import Foundation
import UserBackendKit

/// A token split and decoded, before any check but the shape.
///
/// The shape is strict so that one token has one reading (and one spelling): every segment
/// is canonical base64url (``UserBackendKit/Base64URL/decode(_:)``), the header and the
/// claims are UTF-8 JSON objects without a byte order mark and without a member name given
/// twice, read by the same reader as `baas doc set` values
/// (``UserBackendKit/DocumentJSONReader``), and the header has no `crit` (RFC 7515
/// §4.1.11: it lists extensions the verifier must understand, and this one understands
/// none). Each failure is `malformed`.
struct ParsedToken {
  /// The header members the checks read.
  struct Header: Sendable {
    /// `alg`, when a string.
    var algorithm: String?
    /// `kid`, when a string.
    var keyID: String?

    /// The last headers read, by their exact base64url text: every token signed under
    /// one key has the same header, so a warm verifier parses it once. At most
    /// ``cacheLimit`` entries (emptied when full), so made-up headers cannot grow it.
    /// Only headers that passed are kept.
    private static let cache = LockedValue<[String: Header]>([:])
    private static let cacheLimit = 64

    /// The header of a base64url segment.
    /// - Throws: `malformed` when it is not a JSON object of the strict shape, or has `crit`.
    static func parse(_ segment: Substring) throws(TokenRejection) -> Header {
      let text = String(segment)
      if let cached = cache.withLock({ $0[text] }) { return cached }
      let members = try ParsedToken.object(segment, "header")
      if members["crit"] != nil {
        throw ParsedToken.malformed(
          "the header has crit (critical extensions); this verifier understands none")
      }
      let header = Header(
        algorithm: ParsedToken.string(members["alg"]), keyID: ParsedToken.string(members["kid"]))
      cache.withLock { cache in
        if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[text] = header
      }
      return header
    }
  }

  /// What the header says.
  var header: Header
  /// The claims object.
  var claims: [String: DocumentValue]
  /// The signature bytes (empty for an unsigned token).
  var signature: Data
  /// `<header>.<claims>` as sent: the bytes the signature covers.
  var signingInput: Data
  /// `iat`, `exp`, `auth_time` in seconds since 1970.
  var issuedAt: TimeInterval
  var expiresAt: TimeInterval
  var authTime: TimeInterval

  /// The latest time claim accepted (year 5138): larger values are malformed.
  static let latestTime: TimeInterval = 1e11

  static func malformed(_ detail: String) -> TokenRejection {
    TokenRejection(.malformed, detail)
  }

  /// A string member's text; `nil` when absent or not a string.
  static func string(_ value: DocumentValue?) -> String? {
    if case .string(let text) = value { return text }
    return nil
  }

  /// The members of the JSON object in base64url `segment` (`name` is `header` or
  /// `claims`, for the message). The detail never quotes the segment's content.
  static func object(_ segment: Substring, _ name: String) throws(TokenRejection)
    -> [String: DocumentValue]
  {
    guard let data = Base64URL.decode(segment) else {
      throw malformed("the \(name) is not canonical base64url (unpadded, URL-safe alphabet)")
    }
    switch DocumentJSONReader.read(utf8: Array(data)) {
    case .value(.map(let members)): return members
    case .value: throw malformed("the \(name) is not a JSON object")
    case .notJSON:
      throw malformed("the \(name) is not UTF-8 JSON (without a byte order mark)")
    case .unusable:
      throw malformed(
        "the \(name) has a member name twice, nests too deep or holds a number out of range")
    }
  }

  /// Splits and decodes `token`.
  /// - Throws: `malformed`.
  init(_ token: String) throws(TokenRejection) {
    guard token.utf8.count <= FirebaseTokenVerifier.maximumTokenBytes else {
      throw Self.malformed("longer than \(FirebaseTokenVerifier.maximumTokenBytes) bytes")
    }
    guard let parts = JSONWebToken.segments(of: token) else {
      throw Self.malformed("not three dot-separated segments")
    }
    let header = try Header.parse(parts[0])
    let claims = try Self.object(parts[1], "claims")
    guard let signature = Base64URL.decode(parts[2]) else {
      throw Self.malformed("the signature is not canonical base64url (unpadded, URL-safe alphabet)")
    }
    func time(_ name: String) throws(TokenRejection) -> TimeInterval {
      let seconds: Double
      switch claims[name] {
      case .integer(let number): seconds = Double(number)
      case .double(let number): seconds = number
      default: throw Self.malformed("\(name) is missing or not a time in seconds since 1970")
      }
      guard seconds.isFinite, (0...Self.latestTime).contains(seconds) else {
        throw Self.malformed("\(name) is missing or not a time in seconds since 1970")
      }
      return seconds
    }
    self.header = header
    self.claims = claims
    self.signature = signature
    self.signingInput = Data(token.utf8[..<parts[1].endIndex])
    self.issuedAt = try time("iat")
    self.expiresAt = try time("exp")
    self.authTime = try time("auth_time")
  }
}
