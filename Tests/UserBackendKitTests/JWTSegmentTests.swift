import Foundation
import Testing
import UserBackendKit

/// `JSONWebToken.segments(of:)` splits on the UTF-8 bytes. These tests pin it against the
/// splits it replaced: `String.split` by `Character` (the client's old parse) wherever a
/// dot starts its own `Character`, and a plain byte split everywhere (RFC 7515 §7.1: the
/// compact form is split at the ASCII `.`), so a token whose dot is glued to a combining
/// mark is split at that dot and then refused as malformed, never read as fewer segments.
@Suite(.timeLimit(.minutes(1))) struct JWTSegmentTests {
  /// The old client split: by `Character`, exactly three parts or none.
  static func characterSplit(_ token: String) -> [String]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 3 ? parts.map(String.init) : nil
  }

  /// A byte split at every ASCII `.`: exactly three parts or none.
  static func byteSplit(_ token: String) -> [String]? {
    let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 3 ? parts.map { String(decoding: $0, as: UTF8.self) } : nil
  }

  static let unsignedToken = JSONWebToken.unsigned(claims: ["sub": "u1", "exp": 1_700_000_000])

  /// ASCII shapes: every dot count from 0 to 5, empty segments at every position.
  static let asciiTokens: [String] = [
    "", ".", "..", "...", "....", ".....", "abc", "a.b", "a.b.c", "a..c", ".b.", "..c", "a..",
    ".b.c", "a.b.", "a.b.c.d", "a.b.c.d.e", "a.b.c.d.e.f", "e30.e30.sig", "e30.e30.",
    unsignedToken, unsignedToken + "sig", unsignedToken + ".", "x" + unsignedToken,
  ]

  /// Non-ASCII where every dot still starts its own `Character`.
  static let nonASCIITokens: [String] = [
    "é.b.c", "a.é.c", "a.b.é", "e\u{301}.b.c", "a.b\u{301}.c", "😀.😀.😀", "👩‍👩‍👧.x.y",
    "🇯🇵.🇫🇷.x", "a.b.c😀", "é.é", "é.é.é.é", "\u{3000}.\u{A0}.\u{85}",
  ]

  /// A dot followed by a combining mark, or a dot after a prepended mark (U+0D4E): the dot
  /// is inside a `Character`, so the `Character` split does not see it. JWTs are ASCII
  /// base64url; the byte split is the one RFC 7515 describes.
  static let gluedDotTokens: [String] = [
    "a.\u{301}b.c", "a.b.\u{301}c", ".\u{301}.", "e30.\u{301}e30.", "\u{D4E}.b.c",
    "a\u{D4E}.b.c", "a.b.\u{301}", "e30.e30.\u{20DD}", "e30.e30.\u{301}",
  ]

  @Test(arguments: asciiTokens + nonASCIITokens)
  func segmentsEqualTheCharacterSplit(token: String) {
    let segments = JSONWebToken.segments(of: token)?.map(String.init)
    #expect(segments == Self.characterSplit(token))
  }

  @Test(arguments: asciiTokens + nonASCIITokens + gluedDotTokens)
  func segmentsEqualTheByteSplit(token: String) {
    let segments = JSONWebToken.segments(of: token)
    #expect(segments?.map(String.init) == Self.byteSplit(token))
    // The three slices cover the token: joined again they give it back, byte for byte.
    if let segments {
      #expect(Array(segments.joined(separator: ".").utf8) == Array(token.utf8))
    }
  }

  /// The `Character` split and the byte split disagree on these (the one behavioural
  /// change of the byte split): the old parse refused every one as `wrongSegmentCount(2)`.
  /// Now a mark in the header or payload is refused as a `ParseError` too; a mark leading
  /// the signature is read like any other non-base64url signature.
  @Test(arguments: gluedDotTokens)
  func aDotGluedToAMarkSplitsThere(token: String) throws {
    #expect(Self.characterSplit(token)?.count != Self.byteSplit(token)?.count)
    let parts = try #require(Self.byteSplit(token))
    if Base64URL.decode(parts[0]) == nil || Base64URL.decode(parts[1]) == nil {
      // A mark in the header or payload: refused as malformed, not read as two segments.
      #expect(throws: JSONWebToken.ParseError.self) { try JSONWebToken(parsing: token) }
      #expect(throws: JSONWebToken.ParseError.self) {
        try JSONWebToken.decodeClaims([String: String].self, of: token)
      }
    } else {
      // A mark leading the signature: the parse does not read the signature (as for any
      // other non-base64url signature, `e30.e30.é`), so the token reads, its signature
      // being the bytes after the second dot. The `Character` split refused it as
      // `wrongSegmentCount(2)`.
      let parsed = try JSONWebToken(parsing: token)
      #expect(parsed.signature == parts[2])
      #expect(try JSONWebToken(parsing: "e30.e30.é").signature == "é")
    }
  }

  /// The old parse's errors after the split (the split itself is checked above).
  static func oldDecodeError(_ parts: [String]) -> JSONWebToken.ParseError? {
    guard let header = Base64URL.decode(parts[0]) else { return .badEncoding(segment: "header") }
    guard let payload = Base64URL.decode(parts[1]) else {
      return .badEncoding(segment: "payload")
    }
    guard (try? JSONSerialization.jsonObject(with: header)) is [String: Any] else {
      return .notJSONObject(segment: "header")
    }
    guard (try? JSONSerialization.jsonObject(with: payload)) is [String: Any] else {
      return .notJSONObject(segment: "payload")
    }
    return nil
  }

  @Test(arguments: [
    "..", ".e30.", "e30..", "e30.e30.", "e30.e30.!!", "!!!.e30.", "e30.!!!.", "WzFd.e30.",
    "e30.WzFd.", "e30.IkEi.", "bnVsbA.e30.", "e30.e30.x", "e.e30.", "e30.e.", "e30=.e30.",
    unsignedToken, unsignedToken + "c2ln",
  ])
  func parseErrorsKeepTheirKinds(token: String) throws {
    let parts = try #require(Self.characterSplit(token))
    if let expected = Self.oldDecodeError(parts) {
      #expect(throws: expected) { try JSONWebToken(parsing: token) }
    } else {
      let parsed = try JSONWebToken(parsing: token)
      #expect(parsed.signature == parts[2])
      #expect(parsed.header == Base64URL.decode(parts[0]))
      #expect(parsed.payload == Base64URL.decode(parts[1]))
    }
  }

  /// The count reported is the number of dot-separated segments. The old parse split with
  /// `maxSplits: 3` and so reported 4 for any longer token; the count is now exact.
  @Test(arguments: ["", "abc", "a.b", ".", "a.b.c.d", "...", "a.b.c.d.e", "....", "a.b.c.d.e.f"])
  func wrongSegmentCountIsTheDotCountPlusOne(token: String) {
    let count = token.utf8.filter { $0 == UInt8(ascii: ".") }.count + 1
    #expect(throws: JSONWebToken.ParseError.wrongSegmentCount(count)) {
      try JSONWebToken(parsing: token)
    }
    #expect(throws: JSONWebToken.ParseError.wrongSegmentCount(count)) {
      try JSONWebToken.decodeClaims([String: String].self, of: token)
    }
  }

  struct Claims: Decodable, Equatable {
    var sub: String
    var exp: Double
  }

  @Test func decodeClaimsDecodesThePayload() throws {
    let claims = try JSONWebToken.decodeClaims(Claims.self, of: Self.unsignedToken)
    #expect(claims == Claims(sub: "u1", exp: 1_700_000_000))
    let signed = Self.unsignedToken + "c2lnbmF0dXJl"
    #expect(try JSONWebToken.decodeClaims(Claims.self, of: signed) == claims)
    // The same claims the full parse reads.
    let parsed = try JSONWebToken(parsing: signed)
    #expect(parsed.stringClaim("sub") == claims.sub)
    #expect(parsed.numericClaim("exp") == claims.exp)
  }

  @Test(arguments: ["WzFd", "IkEi", "bnVsbA", "MQ", "dHJ1ZQ", ""])
  func decodeClaimsRefusesAPayloadThatIsNotAnObject(payload: String) {
    let token = "e30." + payload + "."
    #expect(throws: DecodingError.self) {
      try JSONWebToken.decodeClaims([String: String].self, of: token)
    }
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "payload")) {
      try JSONWebToken(parsing: token)
    }
  }

  @Test(arguments: ["!!!", "e", "e30=x", "é", "e30 "])
  func decodeClaimsRefusesAPayloadThatIsNotBase64URL(payload: String) {
    #expect(throws: JSONWebToken.ParseError.badEncoding(segment: "payload")) {
      try JSONWebToken.decodeClaims([String: String].self, of: "e30." + payload + ".")
    }
  }
}
