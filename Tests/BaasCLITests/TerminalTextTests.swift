import Foundation
import Testing

@testable import baas
import UserBackendKit

/// Issue 16 item 7: text from servers never reaches the terminal with control sequences.
@Suite("Human output neutralises terminal control characters", .timeLimit(.minutes(1)))
struct TerminalTextTests {
  static let hostile = [
    "\u{1B}[2J",  // ESC [2J: clear screen
    "\u{1B}]0;pwned\u{07}",  // OSC: set the window title, BEL-terminated
    "\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",  // OSC 8 hyperlink
    "\u{9B}2J",  // C1 CSI
    "\u{9D}0;pwned\u{9C}",  // C1 OSC … ST
    "gro\u{202E}moc.elpmaxe",  // right-to-left override
    "a\u{2066}b\u{2069}",  // isolates
    "line\nfake: ok\r",  // a forged second line
    "del\u{7F}",
  ]

  /// `true` when `text` holds nothing a terminal would act on.
  static func isInert(_ text: String) -> Bool {
    !text.unicodeScalars.contains { scalar in
      scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value)
        || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(scalar.value)
        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
  }

  @Test("an error message from a server is printed inert", arguments: hostile)
  func errorMessage(_ payload: String) {
    let error = UserBackendError(
      .server(status: 500, code: "X", message: payload), message: "server said: \(payload)")
    let lines = HumanOutput.errorLines(error, backend: "ncmb")
    #expect(lines.allSatisfy(Self.isInert), "\(lines)")
    #expect(lines.joined().contains("\\u{"))
  }

  @Test(
    "emails, user names, IDs and phone numbers from a server are printed inert",
    arguments: hostile)
  func user(_ payload: String) {
    let users = [
      User(id: "id", email: "a\(payload)@example.com", providers: ["password"]),
      User(id: "id", email: "a@example.com", username: "n\(payload)", providers: ["password"]),
      User(id: "id\(payload)", providers: ["x\(payload)"]),
      User(id: "id", phoneNumber: "+1\(payload)", providers: ["phone"]),
    ]
    for user in users {
      let line = HumanOutput.describe(user)
      #expect(Self.isInert(line), "\(line)")
    }
  }

  /// `verify --format junit` prints XML whose failure messages quote servers: every
  /// terminal-unsafe scalar becomes a character reference (the same XML value; a carriage
  /// return too, which could rewrite a line), the document's line feeds and tabs stay.
  @Test("JUnit XML from hostile text is inert and keeps its value", arguments: hostile)
  func junitXML(_ payload: String) {
    let xml = "<failure message=\"\(payload)\">\n\t\(payload)</failure>\n"
    let safe = TerminalText.xmlSafe(xml)
    #expect(
      !safe.unicodeScalars.contains { scalar in
        scalar != "\n" && scalar != "\t" && TerminalText.needsEscape(scalar)
      }, "\(safe)")
    // Each escaped scalar is a character reference that XML reads back as the scalar.
    var decoded = safe
    for scalar in xml.unicodeScalars where TerminalText.needsEscape(scalar) {
      decoded = decoded.replacingOccurrences(
        of: "&#x\(String(scalar.value, radix: 16));", with: String(Character(scalar)))
    }
    #expect(decoded == xml)
    #expect(TerminalText.xmlSafe("<a>é 😀 &amp;</a>\n") == "<a>é 😀 &amp;</a>\n")
  }

  @Test("plain text, tabs, emoji and non-Latin scripts are unchanged")
  func plainText() {
    for text in ["alice@example.com", "émile\tx", "👩‍💻 山田", "a\\u{1B}b"] {
      #expect(TerminalText.safe(text) == text)
    }
    #expect(TerminalText.safe("a\nb", keepingNewlines: true) == "a\nb")
    #expect(TerminalText.safe("a\nb") == "a\\u{0A}b")
    #expect(TerminalText.safe("\u{1B}[2J") == "\\u{1B}[2J")
  }
}
