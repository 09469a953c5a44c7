/// Text for people's terminals: server-supplied strings (error messages, emails, user
/// names, IDs) and file contents must not be able to drive the terminal, nor hide or fake
/// characters of a name.
///
/// Replaced by a visible escape such as `\u{1B}` (the one rule, ``replacingUnsafe(_:keeping:with:)``):
/// - every control character: C0 such as ESC `U+001B` and BEL, DEL, and C1 such as CSI
///   `U+009B` and OSC `U+009D`;
/// - the line and paragraph separators `U+2028`, `U+2029`;
/// - every character that renders as nothing, Unicode's default-ignorable code points
///   (``isInvisible(_:)``): the bidirectional formatting characters (`U+061C`, `U+200E`,
///   `U+200F`, `U+202A`–`U+202E`, `U+2066`–`U+2069`), zero-width space, non-joiner and
///   joiner `U+200B`–`U+200D`, word joiner and invisible operators `U+2060`–`U+2064`,
///   `U+FEFF`, soft hyphen `U+00AD`, the Hangul fillers `U+115F`, `U+1160`, `U+3164`,
///   `U+FFA0`, Mongolian `U+180B`–`U+180F`, the variation selectors and the tag characters
///   `U+E0000`–`U+E0FFF`. Decision: `ad\u{200B}min` must not print as `admin`.
///
/// Exception, so emoji keep their look (``isPartOfEmoji(_:at:)``): a zero-width joiner
/// between two emoji (`👩‍💻`), an emoji variation selector `U+FE0E`/`U+FE0F` after an
/// emoji (`❤️`, a keycap `1️⃣`), and the tag characters of a flag tag sequence after
/// `U+1F3F4` (the flag of Scotland). Anywhere else they are escaped.
///
/// A backslash stays as it is. JSON output writes the same scalars as JSON escapes
/// (`\u009b`), so it stays the same JSON value: ``TerminalSafeJSON``; XML as character
/// references: ``xmlSafe(_:)``.
enum TerminalText {
  /// `text` with the characters above escaped; `"\n"` is kept only when
  /// `keepingNewlines` (multi-line reports whose line structure is ours), tab always.
  static func safe(_ text: String, keepingNewlines: Bool = false) -> String {
    replacingUnsafe(text, keeping: keepingNewlines ? ["\t", "\n"] : ["\t"]) { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u{\(String(repeating: "0", count: max(0, 2 - hex.count)) + hex)}"
    }
  }

  /// XML text (`verify --format junit`) with every scalar the rule names, other than tab
  /// and line feed (the document's own layout), written as a character reference
  /// (`&#x9b;`, a carriage return `&#xd;`): the same XML value, inert on a terminal. The
  /// XML writer escapes `& < > " '` and drops what XML 1.0 forbids, but DEL, the C1
  /// controls and the invisible characters are XML characters and passed through raw.
  static func xmlSafe(_ xml: String) -> String {
    replacingUnsafe(xml, keeping: ["\t", "\n"]) { "&#x\(String($0.value, radix: 16));" }
  }

  /// `text` with every scalar ``needsEscape(_:)`` names, except those in `kept` and those
  /// ``isPartOfEmoji(_:at:)`` keeps, replaced by `escape(scalar)`: the one loop behind the
  /// text, XML and JSON (``TerminalSafeJSON``) forms, which differ only in the escape's
  /// spelling and the layout they keep.
  static func replacingUnsafe(
    _ text: String, keeping kept: Set<Unicode.Scalar>, with escape: (Unicode.Scalar) -> String
  ) -> String {
    let scalars = Array(text.unicodeScalars)
    func unsafe(_ index: Int) -> Bool {
      let scalar = scalars[index]
      return needsEscape(scalar) && !kept.contains(scalar) && !isPartOfEmoji(scalars, at: index)
    }
    guard scalars.indices.contains(where: unsafe) else { return text }
    var result = String.UnicodeScalarView()
    for index in scalars.indices {
      if unsafe(index) {
        result.append(contentsOf: escape(scalars[index]).unicodeScalars)
      } else {
        result.append(scalars[index])
      }
    }
    return String(result)
  }

  /// `true` for a control, a line or paragraph separator, or an invisible scalar
  /// (``isInvisible(_:)``), wherever it stands; ``replacingUnsafe(_:keeping:with:)`` keeps
  /// the few that are part of an emoji.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x2028, 0x2029: true
    default: isInvisible(scalar)
    }
  }

  /// `true` for a default-ignorable code point (Unicode's DerivedCoreProperties: a
  /// character that renders as nothing when not supported specially), written out so the
  /// rule does not move with the toolchain's Unicode tables.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F: true
    case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164: true
    case 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8: true
    case 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF: true
    default: false
    }
  }

  /// `true` when `scalars[index]` is a joiner, a variation selector or a tag character
  /// that is part of an emoji: a zero-width joiner between two emoji (the one before may
  /// end in a variation selector), `U+FE0E`/`U+FE0F` right after an emoji (after an ASCII
  /// keycap base `0`–`9`, `#`, `*` only when the keycap `U+20E3` follows), a tag
  /// `U+E0020`–`U+E007F` in a sequence that starts with the black flag `U+1F3F4`.
  static func isPartOfEmoji(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
    func emoji(_ position: Int) -> Bool {
      guard scalars.indices.contains(position) else { return false }
      let scalar = scalars[position]
      return scalar.value > 0x7F && scalar.properties.isEmoji
    }
    let scalar = scalars[index]
    switch scalar.value {
    case 0x200D:
      let before = index - 1
      let base =
        scalars.indices.contains(before) && scalars[before].value == 0xFE0F ? before - 1 : before
      return emoji(base) && emoji(index + 1)
    case 0xFE0E, 0xFE0F:
      guard index > 0 else { return false }
      if emoji(index - 1) { return true }
      return "0123456789#*".unicodeScalars.contains(scalars[index - 1])
        && index + 1 < scalars.count && scalars[index + 1].value == 0x20E3
    case 0xE0020...0xE007F:
      var start = index - 1
      while start >= 0, (0xE0020...0xE007E).contains(scalars[start].value) { start -= 1 }
      return start >= 0 && scalars[start].value == 0x1F3F4
    default:
      return false
    }
  }
}
