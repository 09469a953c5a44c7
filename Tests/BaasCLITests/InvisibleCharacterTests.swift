import Foundation
import Testing

@testable import baas
import UserBackendKit

/// Characters that render as nothing (zero-width space, soft hyphen, tag characters, Hangul
/// fillers, variation selectors…) are made visible in text, JSON and XML output alike, so
/// `ad\u{200B}min` never prints as `admin`; emoji sequences keep their joiners.
@Suite("Output makes invisible characters visible", .timeLimit(.minutes(1)))
struct InvisibleCharacterTests {
  static let invisible: [Unicode.Scalar] = [
    "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{2061}", "\u{2062}", "\u{2063}",
    "\u{2064}", "\u{FEFF}", "\u{00AD}", "\u{180E}", "\u{115F}", "\u{1160}", "\u{3164}",
    "\u{FFA0}", "\u{034F}", "\u{FE0F}", "\u{FE00}", "\u{E0001}", "\u{E0041}", "\u{E007F}",
    "\u{E0100}", "\u{206A}",
  ]

  /// A name with `scalar` hidden inside it.
  static func name(_ scalar: Unicode.Scalar) -> String { "ad\(Character(scalar))min" }

  @Test("text output escapes it", arguments: invisible)
  func text(_ scalar: Unicode.Scalar) {
    let safe = TerminalText.safe(Self.name(scalar))
    #expect(!safe.unicodeScalars.contains(scalar), "\(safe.debugDescription)")
    #expect(safe.contains("\\u{\(String(scalar.value, radix: 16, uppercase: true))}"))
  }

  @Test("JSON output escapes it and keeps the value", arguments: invisible)
  func json(_ scalar: Unicode.Scalar) throws {
    let value = ["name": Self.name(scalar)]
    let encoded = try JSONSerialization.data(withJSONObject: value)
    let escaped = TerminalSafeJSON.escaped(String(decoding: encoded, as: UTF8.self))
    #expect(!escaped.unicodeScalars.contains(scalar), "\(escaped.debugDescription)")
    let parsed = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
    #expect(parsed == value)
  }

  @Test("XML output writes it as a character reference", arguments: invisible)
  func xml(_ scalar: Unicode.Scalar) {
    let safe = TerminalText.xmlSafe("<failure message=\"\(Self.name(scalar))\"/>\n")
    #expect(!safe.unicodeScalars.contains(scalar), "\(safe.debugDescription)")
    #expect(safe.contains("&#x\(String(scalar.value, radix: 16));"))
  }

  @Test("the document's JSON string form escapes it too", arguments: invisible)
  func documentJSON(_ scalar: Unicode.Scalar) {
    let text = DocumentOutput.text(.string(Self.name(scalar)))
    #expect(!TerminalText.safe(text).unicodeScalars.contains(scalar))
  }

  @Test(
    "emoji sequences keep their joiners, variation selectors and flag tags",
    arguments: [
      "👩‍💻", "❤️", "❤️‍🔥", "1️⃣", "👍🏽", "🏳️‍🌈",
      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    ])
  func emoji(_ text: String) throws {
    #expect(TerminalText.safe(text) == text)
    #expect(TerminalText.xmlSafe(text) == text)
    #expect(TerminalSafeJSON.escaped(text) == text)
  }

  @Test("a joiner or selector outside an emoji sequence is escaped")
  func strayJoiners() {
    #expect(TerminalText.safe("a\u{200D}b") == "a\\u{200D}b")
    #expect(TerminalText.safe("1\u{FE0F}") == "1\\u{FE0F}")
    #expect(TerminalText.safe("x\u{E0067}") == "x\\u{E0067}")
    #expect(TerminalText.safe("👩\u{200D}x") == "👩\\u{200D}x")
  }
}
