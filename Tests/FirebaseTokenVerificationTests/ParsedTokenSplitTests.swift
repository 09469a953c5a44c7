import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// The verifier splits with `JSONWebToken.segments(of:)` (it had its own byte splitter
/// before): a token that is not three segments is refused with the same detail, and the
/// signing input is still every byte before the second dot.
@Suite(.timeLimit(.minutes(1))) struct ParsedTokenSplitTests {
  static let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"k1"}"#.utf8))
  static let claims = Base64URL.encode(
    (try? JSONSerialization.data(withJSONObject: Tokens.claims(), options: [.sortedKeys]))
      ?? Data())

  @Test(arguments: [
    "", "abc", "a.b", ".", "a.b.c.d", "...", "....", "a.b.c.d.e", "é", "é.é", "a.\u{301}b",
    "😀.😀.😀.😀", header + "." + claims, header + "." + claims + ".sig.more",
    header + "." + claims + "..",
  ])
  func notThreeSegmentsIsMalformed(token: String) {
    let error = #expect(throws: TokenRejection.self) { try ParsedToken(token) }
    #expect(error?.reason == .malformed)
    #expect(error?.detail == "not three dot-separated segments")
  }

  @Test(arguments: ["", "c2ln", "AQID", String(repeating: "A", count: 342)])
  func signingInputIsTheBytesBeforeTheSecondDot(signature: String) throws {
    let token = Self.header + "." + Self.claims + "." + signature
    let parsed = try ParsedToken(token)
    #expect(parsed.signingInput == Data((Self.header + "." + Self.claims).utf8))
    let secondDot = try #require(token.utf8.lastIndex(of: UInt8(ascii: ".")))
    #expect(parsed.signingInput == Data(token.utf8[..<secondDot]))
    #expect(parsed.signature == Base64URL.decode(signature))
    #expect(parsed.header.keyID == "k1")
    #expect(parsed.claims["sub"] == .string("u-1"))
  }

  /// A combining mark glued to a dot does not hide the dot (the split is on bytes): the
  /// segments around it are then not base64url and the token is malformed.
  @Test(arguments: [
    header + ".\u{301}" + claims + ".c2ln", header + "." + claims + "\u{D4E}.c2ln",
    header + "." + claims + ".\u{301}c2ln", "\u{D4E}" + header + "." + claims + ".c2ln",
  ])
  func aDotGluedToAMarkIsMalformed(token: String) {
    let error = #expect(throws: TokenRejection.self) { try ParsedToken(token) }
    #expect(error?.reason == .malformed)
    #expect(error?.detail != "not three dot-separated segments")
  }
}
