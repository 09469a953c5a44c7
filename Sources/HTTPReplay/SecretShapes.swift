import Foundation
import UserBackendKit

/// Secret shapes recognised without knowing the secret: Google API keys (`AIza` + 35
/// base64url characters), Firebase refresh tokens (`AMf-` + at least 30), signed JWTs, and
/// unsigned JWTs that are not in the normal form redaction writes.
///
/// Redaction replaces every such shape; the leak scan reports any that survive. All
/// functions work on decoded text (JSON escapes, percent-encoding, base64 and content
/// codings undone by the caller).
enum SecretShapes {
  /// The kinds of shape.
  enum Kind: String, CaseIterable {
    case googleAPIKey = "Google API key shape"
    case refreshToken = "Firebase refresh token shape"
    case signedJWT = "signed JWT shape"
    case unsignedJWT = "unsigned JWT not in redacted form"

    /// The alias category redaction uses for the kind.
    var category: String {
      switch self {
      case .googleAPIKey: "FIREBASE_API_KEY"
      case .refreshToken: "REFRESH_TOKEN"
      case .signedJWT, .unsignedJWT: "JWT"
      }
    }
  }

  /// Byte ranges of `prefix` followed by at least `minimum` base64url characters (the
  /// whole run), not preceded by a base64url character.
  static func prefixedRuns(_ prefix: String, minimum: Int, exactly: Int? = nil, in bytes: [UInt8])
    -> [Range<Int>]
  {
    let needle = Array(prefix.utf8)
    var ranges: [Range<Int>] = []
    for offset in LeakScanner.occurrences(of: needle, in: bytes) {
      if offset > 0, SignedJWTScanner.isBase64URL(bytes[offset - 1]) { continue }
      if let last = ranges.last, offset < last.upperBound { continue }
      var end = offset + needle.count
      while end < bytes.count, SignedJWTScanner.isBase64URL(bytes[end]) { end += 1 }
      let length = end - offset - needle.count
      if let exactly {
        guard length >= exactly else { continue }
        end = offset + needle.count + exactly
      } else if length < minimum {
        continue
      }
      ranges.append(offset..<end)
    }
    return ranges
  }

  /// Every shape in `text`, as (kind, range) sorted by position, non-overlapping.
  static func find(in text: String, jwtClaims: [RedactionRule]) -> [(Kind, Range<String.Index>)] {
    let utf8 = text.utf8
    guard text.contains("AIza") || text.contains("AMf-") || text.contains("eyJ") else {
      return []
    }
    let bytes = Array(utf8)
    var found: [(Kind, Range<Int>)] = []
    for range in prefixedRuns("AIza", minimum: 35, exactly: 35, in: bytes) {
      found.append((.googleAPIKey, range))
    }
    for range in prefixedRuns("AMf-", minimum: 30, in: bytes) {
      found.append((.refreshToken, range))
    }
    for range in SignedJWTScanner.byteRanges(in: bytes) { found.append((.signedJWT, range)) }
    for range in unsignedJWTRanges(in: bytes) {
      let token = String(decoding: bytes[range], as: UTF8.self)
      if !isRedactedUnsignedJWT(token, jwtClaims: jwtClaims) { found.append((.unsignedJWT, range)) }
    }
    found.sort { $0.1.lowerBound < $1.1.lowerBound }
    var result: [(Kind, Range<String.Index>)] = []
    var end = 0
    for (kind, range) in found where range.lowerBound >= end {
      end = range.upperBound
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
      result.append((kind, lower..<upper))
    }
    return result
  }

  /// Byte ranges of `eyJ….eyJ….` (two base64url segments, a dot, no signature).
  static func unsignedJWTRanges(in bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = 0
    while index + 3 <= bytes.count {
      guard bytes[index] == 0x65, bytes[index + 1] == 0x79, bytes[index + 2] == 0x4A,
        index == 0 || !SignedJWTScanner.isBase64URL(bytes[index - 1])
      else {
        index += 1
        continue
      }
      var cursor = index
      while cursor < bytes.count, SignedJWTScanner.isBase64URL(bytes[cursor]) { cursor += 1 }
      guard cursor < bytes.count, bytes[cursor] == 0x2E else {
        index = cursor
        continue
      }
      cursor += 1
      let payloadStart = cursor
      while cursor < bytes.count, SignedJWTScanner.isBase64URL(bytes[cursor]) { cursor += 1 }
      guard cursor > payloadStart, cursor < bytes.count, bytes[cursor] == 0x2E else {
        index = cursor
        continue
      }
      cursor += 1
      if cursor == bytes.count || !SignedJWTScanner.isBase64URL(bytes[cursor]) {
        ranges.append(index..<cursor)
      }
      while cursor < bytes.count, SignedJWTScanner.isBase64URL(bytes[cursor]) { cursor += 1 }
      index = cursor
    }
    return ranges
  }

  /// `true` when `token` is an unsigned JWT in the normal form redaction writes (and the
  /// emulator issues): header `{"alg":"none","typ":…}` only, claims encoded canonically.
  /// Such a token is no credential (anyone can write one); any other unsigned JWT (another
  /// header, a `kid`, other encoding) is rewritten by redaction, its rule-named claims
  /// (`nonce`, hashes) aliased.
  ///
  /// `jwtClaims` are not required to be aliases here: the committed recordings hold
  /// normal-form test tokens whose `nonce` claim is the hash of a raw nonce sent beside it.
  static func isRedactedUnsignedJWT(_ token: String, jwtClaims: [RedactionRule]) -> Bool {
    guard let parsed = try? JSONWebToken(parsing: token), parsed.signature.isEmpty,
      let header = (try? JSONSerialization.jsonObject(with: parsed.header)) as? [String: Any],
      let claims = (try? JSONSerialization.jsonObject(with: parsed.payload)) as? [String: Any],
      header["alg"] as? String == "none", Set(header.keys).isSubset(of: ["alg", "typ"])
    else { return false }
    return JSONWebToken.unsigned(claims: claims, header: header) == token
  }
}
