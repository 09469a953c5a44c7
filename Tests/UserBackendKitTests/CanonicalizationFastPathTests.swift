import Foundation
import Testing
import UserBackendKit

/// The ASCII fast paths of the canonical forms give what Foundation's trimming and NFC
/// give, and the control-character check decides ASCII as the Unicode properties do.
@Suite(.timeLimit(.minutes(1))) struct CanonicalizationFastPathTests {
  static let names: [String] = [
    "adapter-bench", "a", "Émile", "e\u{301}mile", " padded", "padded ", "\tTab", "tab\t",
    "new\nline", "nbsp\u{A0}", "\u{85}next", "ideographic\u{3000}", "a b", "~!@#$%^&*()_+",
  ]

  @Test(arguments: names)
  func usernameIsTrimmedNFC(name: String) throws {
    let expected = name.trimmingCharacters(in: .whitespacesAndNewlines)
      .precomposedStringWithCanonicalMapping
    let hasControl = expected.unicodeScalars.contains {
      $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
    }
    if hasControl {
      #expect(throws: UserBackendError.self) { try IdentifierCanonicalization.username(name) }
    } else {
      #expect(try IdentifierCanonicalization.username(name) == expected)
    }
  }

  @Test(arguments: 0..<0x80)
  func asciiControlCheckMatchesUnicodeProperties(code: Int) {
    let scalar = Unicode.Scalar(UInt8(code))
    let text = "a\(Character(scalar))b"
    let category = scalar.properties.generalCategory
    #expect(
      IdentifierCanonicalization.containsControlOrFormatCharacters(text)
        == (category == .control || category == .format))
  }

  @Test func emailFoldsAsBefore() throws {
    #expect(try IdentifierCanonicalization.email("User@Example.COM") == "user@example.com")
    #expect(try IdentifierCanonicalization.email("  User@Example.COM\n") == "user@example.com")
  }
}
