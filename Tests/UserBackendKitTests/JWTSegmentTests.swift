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
      #expect(throws: JSONWebToken.ParseError.self) { try JSONWebToken.claims(of: token) }
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
      try JSONWebToken.claims(of: token)
    }
  }

  @Test func claimsReadsThePayload() throws {
    let claims = try JSONWebToken.claims(of: Self.unsignedToken)
    #expect(claims == ["sub": .string("u1"), "exp": .integer(1_700_000_000)])
    let signed = Self.unsignedToken + "c2lnbmF0dXJl"
    #expect(try JSONWebToken.claims(of: signed) == claims)
    // The same claims the full parse reads.
    let parsed = try JSONWebToken(parsing: signed)
    #expect(parsed.stringClaim("sub") == "u1")
    #expect(parsed.numericClaim("exp") == 1_700_000_000)
  }

  @Test(arguments: ["WzFd", "IkEi", "bnVsbA", "MQ", "dHJ1ZQ", ""])
  func claimsRefusesAPayloadThatIsNotAnObject(payload: String) {
    let token = "e30." + payload + "."
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "payload")) {
      try JSONWebToken.claims(of: token)
    }
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "payload")) {
      try JSONWebToken(parsing: token)
    }
  }

  @Test(arguments: ["!!!", "e", "e30=x", "é", "e30 "])
  func claimsRefusesAPayloadThatIsNotBase64URL(payload: String) {
    #expect(throws: JSONWebToken.ParseError.badEncoding(segment: "payload")) {
      try JSONWebToken.claims(of: "e30." + payload + ".")
    }
  }

  /// Texts that readers disagree on (which value of a name given twice, invalid UTF-8, a
  /// byte order mark, a lone surrogate, a number no double holds): one token must have one
  /// reading in every layer, so the client's claims, the full parse (the emulator, the fake,
  /// cassette redaction) and the verifier all refuse them. Both client readers took them
  /// before: `JSONDecoder` kept the first `sub`, `JSONSerialization` the last.
  static let ambiguousPayloads: [Data] = [
    Data(#"{"sub":"alice","sub":"bob"}"#.utf8),
    Data(#"{"sub":"alice","firebase":{"sign_in_provider":"a","sign_in_provider":"b"}}"#.utf8),
    Data(#"{"sub":"alice","s\u0075b":"bob"}"#.utf8),
    Data([0xEF, 0xBB, 0xBF]) + Data(#"{"sub":"alice"}"#.utf8),
    Data(#"{"sub":"alice","x":""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8),
    Data(#"{"sub":"alice","x":"\ud800"}"#.utf8),
    Data(#"{"sub":"alice","x":1e999}"#.utf8),
    Data(#"{"sub":"alice","x":01}"#.utf8),
  ]

  @Test(arguments: ambiguousPayloads)
  func aPayloadWithoutOneReadingIsRefusedByEveryReader(payload: Data) {
    let token = "e30." + Base64URL.encode(payload) + "."
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "payload")) {
      try JSONWebToken.claims(of: token)
    }
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "payload")) {
      try JSONWebToken(parsing: token)
    }
  }

  /// The header is read by the same strict reader in the full parse.
  @Test func aHeaderWithANameTwiceIsRefused() {
    let header = Base64URL.encode(Data(#"{"alg":"none","alg":"RS256"}"#.utf8))
    #expect(throws: JSONWebToken.ParseError.notJSONObject(segment: "header")) {
      try JSONWebToken(parsing: header + ".e30.")
    }
  }

  /// Numbers keep their kind in the claims (an integer `exp` is `.integer`); the full
  /// parse gives both as seconds. A JSON `true` is not a number of seconds (the old parse
  /// read it as 1 through the bridged `NSNumber`).
  @Test func numericClaimsReadIntegersAndDoublesButNotBooleans() throws {
    let token = JSONWebToken.unsigned(claims: ["exp": 10, "iat": 2.5, "auth_time": true])
    #expect(try JSONWebToken.claims(of: token)["exp"] == .integer(10))
    let parsed = try JSONWebToken(parsing: token)
    #expect(parsed.numericClaim("exp") == 10)
    #expect(parsed.numericClaim("iat") == 2.5)
    #expect(parsed.numericClaim("auth_time") == nil)
  }
}
