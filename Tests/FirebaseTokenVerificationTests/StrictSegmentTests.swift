import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseTokenVerification

/// A token signed by the published key, built from segment texts as given, so a test can
/// sign a respelled header or payload (the signature covers the text, not the bytes).
enum RawTokens {
  /// Header JSON whose base64url holds `-` or `_` (from `?` and `~`), with spaces added
  /// until the text has unused bits (length ≡ 1 mod 3).
  static let header = padded(#"{"alg":"RS256","kid":"k1","pad":"??????~~~~~~","typ":"JWT"}"#)

  /// `text` with spaces added until its UTF-8 length is 1 more than a multiple of 3.
  static func padded(_ text: String) -> String {
    var text = text
    while text.utf8.count % 3 != 1 { text += " " }
    return text
  }

  /// The claims as JSON text, with spaces added until the base64url text has unused
  /// bits (length ≡ 1 mod 3), and a claim whose text gives `-` and `_`.
  static func claimsText() -> String {
    var claims = Tokens.claims()
    claims["note"] = "??????~~~~~~"
    let data = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
    return padded(String(decoding: data ?? Data(), as: UTF8.self))
  }

  /// `header.payload.signature`, the signature made by `key` over the first two texts.
  static func signed(header: String, payload: String, key: RS256SigningKey) -> String {
    let input = header + "." + payload
    return input + "." + Base64URL.encode(key.sign(Data(input.utf8)))
  }

  /// The respellings of a canonical segment that lenient decoding reads as the same bytes.
  static func respellings(_ canonical: String) -> [(String, String)] {
    var result: [(String, String)] = []
    if canonical.count % 4 != 0 {
      result.append(("padded", canonical + String(repeating: "=", count: 4 - canonical.count % 4)))
    }
    if canonical.contains(where: { $0 == "-" || $0 == "_" }) {
      result.append(
        ("standard alphabet", String(canonical.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })))
    }
    if let trailing = nonZeroTrailingBits(canonical) {
      result.append(("non-zero trailing bits", trailing))
    }
    return result
  }

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  private static func nonZeroTrailingBits(_ text: String) -> String? {
    var bytes = Array(text.utf8)
    let unused: UInt8 = bytes.count % 4 == 2 ? 0x0F : bytes.count % 4 == 3 ? 0x03 : 0
    guard unused != 0, let last = bytes.last, let value = alphabet.firstIndex(of: last) else {
      return nil
    }
    bytes[bytes.count - 1] = alphabet[Int(UInt8(value) | unused)]
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Every JWT segment must be canonical base64url (RFC 7515 §2, §7.1): a padded segment,
/// one in the standard alphabet or one whose last character has non-zero unused bits is
/// `malformed`, in the header, the payload and the signature, even when the signature
/// verifies over the respelled text.
@Suite(.timeLimit(.minutes(1))) struct StrictSegmentTests {
  static func verifier(_ key: RS256SigningKey) -> FirebaseTokenVerifier {
    FirebaseTokenVerifier.testing(
      CertificateEndpoint(["k1": key.certificatePEM]), clock: ManualClock(Tokens.start))
  }

  @Test func theCanonicalTokenOfTheseTestsVerifies() async throws {
    let key = try TestKeys.primary()
    let header = Base64URL.encode(Data(RawTokens.header.utf8))
    let payload = Base64URL.encode(Data(RawTokens.claimsText().utf8))
    // The respellings below exist for each segment.
    #expect(RawTokens.respellings(header).count == 3)
    #expect(RawTokens.respellings(payload).count == 3)
    let token = RawTokens.signed(header: header, payload: payload, key: key)
    #expect(RawTokens.respellings(String(token.split(separator: ".")[2])).count >= 2)
    let claims = try await Self.verifier(key).verify(token)
    #expect(claims.userID == "u-1")
  }

  @Test(arguments: ["header", "payload", "signature"])
  func aRespelledSegmentIsMalformed(_ segment: String) async throws {
    let key = try TestKeys.primary()
    let verifier = Self.verifier(key)
    let header = Base64URL.encode(Data(RawTokens.header.utf8))
    let payload = Base64URL.encode(Data(RawTokens.claimsText().utf8))
    let token = RawTokens.signed(header: header, payload: payload, key: key)
    let signature = String(token.split(separator: ".")[2])
    let variants: [(String, String)]
    switch segment {
    case "header":
      variants = RawTokens.respellings(header).map {
        ($0.0, RawTokens.signed(header: $0.1, payload: payload, key: key))
      }
    case "payload":
      variants = RawTokens.respellings(payload).map {
        ($0.0, RawTokens.signed(header: header, payload: $0.1, key: key))
      }
    default:
      variants = RawTokens.respellings(signature).map {
        ($0.0, header + "." + payload + "." + $0.1)
      }
    }
    #expect(!variants.isEmpty)
    for (name, variant) in variants {
      let error = await #expect(throws: TokenRejection.self, "\(segment) \(name)") {
        try await verifier.verify(variant)
      }
      #expect(error?.reason == .malformed, "\(segment) \(name)")
    }
  }
}
