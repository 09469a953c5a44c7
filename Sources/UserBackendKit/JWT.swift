import Foundation

/// Base64url without padding (RFC 4648 §5), as JWTs use it.
package enum Base64URL {
  /// Encodes bytes without padding.
  package static func encode(_ data: some DataProtocol) -> String {
    var bytes = Array(Data(data).base64EncodedData())
    while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
    for index in bytes.indices {
      if bytes[index] == UInt8(ascii: "+") {
        bytes[index] = UInt8(ascii: "-")
      } else if bytes[index] == UInt8(ascii: "/") {
        bytes[index] = UInt8(ascii: "_")
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes canonical base64url, the only form a JWS segment may take (RFC 7515 §2: the
  /// URL-safe alphabet, trailing `=` omitted; §7.1 for the compact form): each byte string
  /// has exactly one accepted text, the one ``encode(_:)`` writes. `nil` for `=` anywhere,
  /// the standard alphabet's `+` and `/`, white space or any other byte, a length of 4n+1,
  /// and a last character whose unused low bits are not zero (RFC 4648 §3.5), which
  /// lenient decoders read as the same bytes.
  ///
  /// There is no lenient mode: every caller reads JWT segments or text that ``encode(_:)``
  /// wrote (the emulator's refresh-token metadata), and no format read here allows another
  /// spelling. Standard base64 (PEM bodies, HAR `encoding: base64`) is not base64url and
  /// goes through `Data(base64Encoded:)` where it is read.
  package static func decode(_ text: some StringProtocol) -> Data? {
    // Byte mapping rather than String.replacingOccurrences: the latter dominated the
    // cost of reading an ID token (`baas bench`, adapter overhead).
    var bytes = Array(text.utf8)
    for index in bytes.indices {
      switch bytes[index] {
      case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
      case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
      case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
      default: break
      }
    }
    let remainder = bytes.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 {
      // 2 characters carry 1 byte (4 unused bits), 3 carry 2 bytes (2 unused bits).
      guard let last = bytes.last, let value = sextet(last),
        value & (remainder == 2 ? 0x0F : 0x03) == 0
      else { return nil }
      bytes += Array(repeating: UInt8(ascii: "="), count: 4 - remainder)
    }
    // Foundation refuses any byte outside the standard alphabet (no options given).
    return Data(base64Encoded: Data(bytes))
  }

  /// The 6-bit value of a standard-alphabet character (after the URL-safe mapping).
  private static func sextet(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}

/// A JSON Web Token split into its parts, read **without** verifying the signature
/// (clients read `exp` and identity claims; servers verify).
package struct JSONWebToken: Sendable, Hashable {
  /// The decoded header object as JSON bytes.
  package let header: Data
  /// The decoded payload (claims) as JSON bytes.
  package let payload: Data
  /// The signature segment as sent (base64url), empty for an unsigned token.
  package let signature: String
  /// Top-level string claims, read once at parse time.
  private let stringClaims: [String: String]
  /// Top-level numeric claims, read once at parse time.
  private let numericClaims: [String: Double]
  /// String members of top-level object claims (`firebase.sign_in_provider`), read once.
  private let nestedStringClaims: [String: [String: String]]

  /// Errors reading a token.
  package enum ParseError: Error, Sendable, Hashable {
    /// Not three dot-separated segments.
    case wrongSegmentCount(Int)
    /// A segment is not base64url.
    case badEncoding(segment: String)
    /// The header or payload is not one JSON object as the strict reader reads it
    /// (``DocumentJSONReader``: UTF-8 without a byte order mark, no member name twice).
    case notJSONObject(segment: String)
  }

  /// The three dot-separated segments of a compact JWS (`header.payload.signature`), split
  /// at every `.` byte; `nil` unless there are exactly three. Splitting by `Character`
  /// (grapheme breaking over the whole token) cost more than decoding the claims
  /// (`baas bench`, adapter overhead). For a JWT, which is ASCII, the two splits agree;
  /// they differ only where a combining mark follows a dot (one `Character`, so no split
  /// there before), and such a token is malformed either way: its segments are not
  /// base64url.
  package static func segments(of token: String) -> [Substring]? {
    let utf8 = token.utf8
    var dots: [String.Index] = []
    for index in utf8.indices where utf8[index] == UInt8(ascii: ".") {
      dots.append(index)
      if dots.count > 2 { return nil }
    }
    guard dots.count == 2 else { return nil }
    return [
      token[..<dots[0]], token[utf8.index(after: dots[0])..<dots[1]],
      token[utf8.index(after: dots[1])...],
    ]
  }

  /// The number of dot-separated segments of `token`, for ``ParseError/wrongSegmentCount(_:)``.
  private static func segmentCount(_ token: String) -> Int {
    token.utf8.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
  }

  /// The claims of `token` (its payload) as JSON values, without reading the header or
  /// checking the signature: for a client that only reads its own ID token's claims.
  ///
  /// Read by the strict reader that ``init(parsing:)`` and the server-side verifier use
  /// (``DocumentJSONReader``), so one token has one reading everywhere: a claim name given
  /// twice, invalid UTF-8, a byte order mark or any text that is not JSON is refused, never
  /// read as its first or last value. Integers are `.integer`, other numbers `.double`.
  ///
  /// - Throws: ``ParseError``: `wrongSegmentCount` when `token` is not three segments,
  ///   `badEncoding` when the payload is not canonical base64url, `notJSONObject` when it
  ///   is not one JSON object the strict reader reads.
  package static func claims(of token: String) throws -> [String: DocumentValue] {
    guard let parts = segments(of: token) else {
      throw ParseError.wrongSegmentCount(segmentCount(token))
    }
    guard let payload = Base64URL.decode(parts[1]) else {
      throw ParseError.badEncoding(segment: "payload")
    }
    guard let claims = object(payload) else { throw ParseError.notJSONObject(segment: "payload") }
    return claims
  }

  /// The members of `json` when it is one JSON object the strict reader reads.
  private static func object(_ json: Data) -> [String: DocumentValue]? {
    guard case .value(.map(let members)) = DocumentJSONReader.read(utf8: Array(json)) else {
      return nil
    }
    return members
  }

  /// Splits and decodes `token`; the header and the claims are read as ``claims(of:)``
  /// reads them (strictly: a member name given twice is refused).
  /// - Throws: ``ParseError``.
  package init(parsing token: String) throws {
    guard let parts = Self.segments(of: token) else {
      throw ParseError.wrongSegmentCount(Self.segmentCount(token))
    }
    guard let header = Base64URL.decode(parts[0]) else {
      throw ParseError.badEncoding(segment: "header")
    }
    guard let payload = Base64URL.decode(parts[1]) else {
      throw ParseError.badEncoding(segment: "payload")
    }
    guard Self.object(header) != nil else { throw ParseError.notJSONObject(segment: "header") }
    guard let claims = Self.object(payload) else {
      throw ParseError.notJSONObject(segment: "payload")
    }
    self.header = header
    self.payload = payload
    self.signature = String(parts[2])
    var strings: [String: String] = [:]
    var numbers: [String: Double] = [:]
    var nested: [String: [String: String]] = [:]
    for (name, value) in claims {
      switch value {
      case .string(let text): strings[name] = text
      case .integer(let number): numbers[name] = Double(number)
      case .double(let number): numbers[name] = number
      case .map(let members):
        nested[name] = members.compactMapValues {
          if case .string(let text) = $0 { text } else { nil }
        }
      default: break
      }
    }
    self.stringClaims = strings
    self.numericClaims = numbers
    self.nestedStringClaims = nested
  }

  /// A numeric claim (`exp`, `iat`, `auth_time`) in seconds since 1970.
  package func numericClaim(_ name: String) -> TimeInterval? { numericClaims[name] }

  /// A string claim (`sub`, `email`, `nonce`).
  package func stringClaim(_ name: String) -> String? { stringClaims[name] }

  /// A string member of an object claim, e.g. `stringClaim("sign_in_provider", in:
  /// "firebase")` for Firebase's `{"firebase": {"sign_in_provider": "password"}}`.
  package func stringClaim(_ name: String, in object: String) -> String? {
    nestedStringClaims[object]?[name]
  }

  /// Two tokens are equal when their segments are.
  package static func == (lhs: JSONWebToken, rhs: JSONWebToken) -> Bool {
    lhs.header == rhs.header && lhs.payload == rhs.payload && lhs.signature == rhs.signature
  }

  /// Hashes the segments.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(header)
    hasher.combine(payload)
    hasher.combine(signature)
  }

  /// The `exp` claim as a date.
  package var expiresAt: Date? { numericClaim("exp").map(Date.init(timeIntervalSince1970:)) }

  /// Encodes an **unsigned** token (`alg: none`, empty signature) from JSON-serialisable
  /// claims, with sorted keys so the output is deterministic. Used by the fake, the
  /// emulator and cassette redaction.
  package static func unsigned(
    claims: [String: Any], header: [String: Any] = ["alg": "none", "typ": "JWT"]
  )
    -> String
  {
    let headerData =
      (try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data()
    let payloadData =
      (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
    return Base64URL.encode(headerData) + "." + Base64URL.encode(payloadData) + "."
  }
}
