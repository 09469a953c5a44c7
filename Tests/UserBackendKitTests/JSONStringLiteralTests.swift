import Foundation
import Testing
import UserBackendKit

/// The hand-written JSON string literal reads back, through Foundation's reader, as the
/// text it was written from, whatever is escaped.
@Suite(.timeLimit(.minutes(1))) struct JSONStringLiteralTests {
  static let texts = [
    "", "plain", "quote \" and \\ backslash", "\u{0}\u{1}\u{8}\u{C}\n\r\t\u{1F}", "é 😀 👩‍👩‍👧",
    "\u{7F}\u{9B}\u{202E}\u{2028}\u{2029}", "a/b", "\u{10FFFF}\u{E0001}",
  ]

  static func readBack(_ literal: String) throws -> String? {
    try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
      as? String
  }

  @Test(arguments: texts)
  func aLiteralReadsBackAsItsText(text: String) throws {
    let literal = JSONStringLiteral.quoted(text)
    #expect(try Self.readBack(literal) == text)
    #expect(!literal.unicodeScalars.contains { $0.value < 0x20 })
  }

  /// Escaping every scalar, those above U+FFFF included (as a surrogate pair), still reads
  /// back as the text, and leaves only ASCII.
  @Test(arguments: texts)
  func escapingEverythingReadsBackAsItsText(text: String) throws {
    let literal = JSONStringLiteral.quoted(text, alsoEscaping: { _ in true })
    #expect(literal.unicodeScalars.allSatisfy { $0.isASCII })
    #expect(try Self.readBack(literal) == text)
  }

  @Test func escapesAreFourLowerCaseHexDigitsOrAPair() {
    #expect(JSONStringLiteral.unicodeEscape("\u{1}") == "\\u0001")
    #expect(JSONStringLiteral.unicodeEscape("\u{9B}") == "\\u009b")
    #expect(JSONStringLiteral.unicodeEscape("\u{1F600}") == "\\ud83d\\ude00")
  }
}
