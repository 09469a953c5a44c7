import Foundation
import Testing
import UserBackendKit

/// `Base64URL.decode` accepts exactly one spelling of each byte string: the one
/// `Base64URL.encode` writes (RFC 7515 §2: base64url with the trailing `=` omitted; RFC 4648
/// §3.5: the unused bits of the last character are zero). A padded text, the standard
/// alphabet's `+` and `/`, non-zero unused bits, white space or any other byte is `nil`,
/// so one signed token cannot be respelled into another string that verifies.
@Suite(.timeLimit(.minutes(1))) struct Base64URLCanonicalTests {
  /// Every length 0…9, every byte at least once across the inputs.
  static let inputs: [Data] =
    (0..<10).map { length in Data((0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 251) }) }
    + [Data([0xfb, 0xff, 0xfe]), Data((0...255).map { UInt8($0) })]

  @Test(arguments: inputs) func theEncodedFormDecodes(_ data: Data) {
    #expect(Base64URL.decode(Base64URL.encode(data)) == data)
  }

  /// The values of the base64url alphabet, for building respellings.
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `text` with its last character's unused bits set to 1 (same bytes when decoded
  /// leniently); `nil` when the length leaves no unused bits.
  static func nonZeroTrailingBits(_ text: String) -> String? {
    var bytes = Array(text.utf8)
    let unused: UInt8
    switch bytes.count % 4 {
    case 2: unused = 0x0F
    case 3: unused = 0x03
    default: return nil
    }
    guard let last = bytes.last, let value = alphabet.firstIndex(of: last) else { return nil }
    bytes[bytes.count - 1] = alphabet[Int(UInt8(value) | unused)]
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test(arguments: inputs) func everyOtherSpellingIsRefused(_ data: Data) {
    let canonical = Base64URL.encode(data)
    var respellings: [String] = []
    if canonical.count % 4 != 0 {
      respellings.append(canonical + String(repeating: "=", count: 4 - canonical.count % 4))
    }
    respellings.append(canonical + "=")
    respellings.append(canonical + "==")
    if canonical.contains(where: { $0 == "-" || $0 == "_" }) {
      respellings.append(
        String(canonical.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }))
    }
    if let trailing = Self.nonZeroTrailingBits(canonical) { respellings.append(trailing) }
    if !canonical.isEmpty {
      let middle = canonical.index(canonical.startIndex, offsetBy: canonical.count / 2)
      for inserted in [" ", "\n", "\r\n", "\t", "=", ".", "\u{00A0}"] {
        var text = canonical
        text.insert(contentsOf: inserted, at: middle)
        respellings.append(text)
      }
    }
    for respelling in respellings {
      #expect(Base64URL.decode(respelling) == nil, "\(respelling.debugDescription)")
    }
  }

  @Test func standardAlphabetAndPaddingAreRefused() {
    // 0xfb 0xff 0xfe is "-__-" in base64url and "+//+" in base64.
    #expect(Base64URL.decode("+//+") == nil)
    #expect(Base64URL.decode("-_/+") == nil)
    #expect(Base64URL.decode("YQ==") == nil)
    #expect(Base64URL.decode("YWI=") == nil)
    // "YR" and "YWJ" decode leniently to the same bytes as "YQ" and "YWI".
    #expect(Base64URL.decode("YR") == nil)
    #expect(Base64URL.decode("YWJ") == nil)
    #expect(Base64URL.decode("YQ") == Data([0x61]))
    #expect(Base64URL.decode("YWI") == Data([0x61, 0x62]))
    #expect(Base64URL.decode("") == Data())
  }
}
