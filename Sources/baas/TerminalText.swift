/// Text for people's terminals: server-supplied strings (error messages, emails, user
/// names, IDs) and file contents must not be able to drive the terminal.
///
/// Every control character (C0 such as ESC `U+001B` and BEL, DEL, and C1 such as CSI
/// `U+009B` and OSC `U+009D`), every bidirectional formatting character (`U+061C`,
/// `U+200E`, `U+200F`, `U+202A`–`U+202E`, `U+2066`–`U+2069`) and the line and paragraph
/// separators (`U+2028`, `U+2029`) are replaced by a visible escape such as `\u{1B}`.
/// A backslash stays as it is. JSON output writes the same scalars as JSON escapes
/// (`\u009b`), so it stays the same JSON value: ``TerminalSafeJSON``.
enum TerminalText {
  /// `text` with the characters above escaped; `"\n"` is kept only when
  /// `keepingNewlines` (multi-line reports whose line structure is ours), tab always.
  static func safe(_ text: String, keepingNewlines: Bool = false) -> String {
    replacingUnsafe(text, keeping: keepingNewlines ? ["\t", "\n"] : ["\t"]) { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u{\(String(repeating: "0", count: max(0, 2 - hex.count)) + hex)}"
    }
  }

  /// XML text (`verify --format junit`) with every scalar ``needsEscape(_:)`` names, other
  /// than tab and line feed (the document's own layout), written as a character reference
  /// (`&#x9b;`, a carriage return `&#xd;`): the same XML value, inert on a terminal. The XML writer escapes `& < > " '` and drops
  /// what XML 1.0 forbids, but DEL, the C1 controls and the bidirectional formatting
  /// characters are XML characters and passed through raw.
  static func xmlSafe(_ xml: String) -> String {
    replacingUnsafe(xml, keeping: ["\t", "\n"]) { "&#x\(String($0.value, radix: 16));" }
  }

  /// `text` with every scalar ``needsEscape(_:)`` names, except those in `kept`, replaced
  /// by `escape(scalar)`: the one loop behind the text, XML and JSON (``TerminalSafeJSON``)
  /// forms, which differ only in the escape's spelling and the layout they keep.
  static func replacingUnsafe(
    _ text: String, keeping kept: Set<Unicode.Scalar>, with escape: (Unicode.Scalar) -> String
  ) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0) && !kept.contains($0) }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if kept.contains(scalar) || !needsEscape(scalar) {
        result.append(scalar)
      } else {
        result.append(contentsOf: escape(scalar).unicodeScalars)
      }
    }
    return String(result)
  }

  /// `true` for a control, bidirectional formatting or line/paragraph separator scalar.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    case 0x2028, 0x2029: true
    default: false
    }
  }
}
