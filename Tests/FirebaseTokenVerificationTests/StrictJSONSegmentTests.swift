import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// The header and claims must be one reading of one JSON object: a `crit` header names
/// extensions this verifier does not understand (RFC 7515 §4.1.11: then the token is
/// invalid); a member name given twice (RFC 7515 §4, RFC 7519 §4: refuse or take the last;
/// readers disagree, so refused); a byte order mark or any encoding but UTF-8 (RFC 8259
/// §8.1). Each is `malformed`, even under a valid signature.
@Suite(.timeLimit(.minutes(1))) struct StrictJSONSegmentTests {
  /// The claims as sorted-key JSON without the closing brace, to append members to.
  static func claimsOpen() -> String {
    let data = try? JSONSerialization.data(
      withJSONObject: Tokens.claims(), options: [.sortedKeys])
    return String(String(decoding: data ?? Data(), as: UTF8.self).dropLast())
  }

  static let header = #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#

  /// (name, header bytes, payload bytes), each signed as given.
  static func cases() -> [(String, Data, Data)] {
    let claims = Data((claimsOpen() + "}").utf8)
    let header = Data(Self.header.utf8)
    let bom = Data([0xEF, 0xBB, 0xBF])
    let utf16 = { (text: String) in text.data(using: .utf16LittleEndian) ?? Data() }
    return [
      ("crit header", Data(#"{"alg":"RS256","crit":["exp"],"kid":"k1","typ":"JWT"}"#.utf8), claims),
      ("crit header, empty list", Data(#"{"alg":"RS256","crit":[],"kid":"k1"}"#.utf8), claims),
      ("duplicate alg in header", Data(#"{"alg":"none","alg":"RS256","kid":"k1"}"#.utf8), claims),
      ("duplicate kid in header", Data(#"{"alg":"RS256","kid":"k2","kid":"k1"}"#.utf8), claims),
      ("duplicate sub in claims", header, Data((claimsOpen() + #","sub":"u-2"}"#).utf8)),
      ("duplicate nested claim", header, Data((claimsOpen() + #","x":{"a":1,"a":2}}"#).utf8)),
      ("BOM before the header", bom + header, claims),
      ("BOM before the claims", header, bom + claims),
      ("UTF-16 claims", header, utf16(claimsOpen() + "}")),
      ("UTF-16 header", utf16(Self.header), claims),
    ]
  }

  @Test func aControlTokenBuiltTheSameWayVerifies() async throws {
    let key = try TestKeys.primary()
    let token = RawTokens.signed(
      header: Base64URL.encode(Data(Self.header.utf8)),
      payload: Base64URL.encode(Data((Self.claimsOpen() + #","x":{"a":1}}"#).utf8)), key: key)
    let claims = try await StrictSegmentTests.verifier(key).verify(token)
    #expect(claims.customClaims["x"] == .object(["a": .number(1)]))
  }

  @Test func eachIsMalformed() async throws {
    let key = try TestKeys.primary()
    let verifier = StrictSegmentTests.verifier(key)
    for (name, header, payload) in Self.cases() {
      let token = RawTokens.signed(
        header: Base64URL.encode(header), payload: Base64URL.encode(payload), key: key)
      let error = await #expect(throws: TokenRejection.self, "\(name)") {
        try await verifier.verify(token)
      }
      #expect(error?.reason == .malformed, "\(name)")
    }
  }
}
