import Foundation
import UserBackendKit

/// A token split and decoded, before any check but the shape.
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
    private static let cache = LockedValue<[String: Header]>([:])
    private static let cacheLimit = 64

    /// The header of a base64url segment; `nil` when it is not a JSON object.
    static func parse(_ segment: Substring) -> Header? {
      let text = String(segment)
      if let cached = cache.withLock({ $0[text] }) { return cached }
      guard let data = Base64URL.decode(text),
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
      else { return nil }
      let header = Header(algorithm: object["alg"] as? String, keyID: object["kid"] as? String)
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
  var claims: [String: Any]
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

  /// Splits and decodes `token`.
  /// - Throws: `malformed`.
  init(_ token: String) throws(TokenRejection) {
    func malformed(_ detail: String) -> TokenRejection { TokenRejection(.malformed, detail) }
    guard token.utf8.count <= FirebaseTokenVerifier.maximumTokenBytes else {
      throw malformed("longer than \(FirebaseTokenVerifier.maximumTokenBytes) bytes")
    }
    guard let parts = JSONWebToken.segments(of: token) else {
      throw malformed("not three dot-separated segments")
    }
    guard let header = Header.parse(parts[0]) else {
      throw malformed("the header is not a base64url JSON object")
    }
    guard let claimsData = Base64URL.decode(parts[1]),
      let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
    else { throw malformed("the claims are not a base64url JSON object") }
    guard let signature = Base64URL.decode(parts[2]) else {
      throw malformed("the signature is not base64url")
    }
    func time(_ name: String) throws(TokenRejection) -> TimeInterval {
      guard let number = claims[name] as? NSNumber,
        number.objCType.pointee != CChar(UInt8(ascii: "c")),
        number.doubleValue.isFinite, (0...Self.latestTime).contains(number.doubleValue)
      else { throw malformed("\(name) is missing or not a time in seconds since 1970") }
      return number.doubleValue
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
