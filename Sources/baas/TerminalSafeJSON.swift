import UserBackendKit

/// The one writer of `--json` output: every JSON text `baas` prints on standard output goes
/// through ``Console/json(_:)``.
///
/// JSON encoders escape only `U+0000`–`U+001F` inside strings; C1 controls (CSI `U+009B`,
/// OSC `U+009D`), DEL, invisible characters (bidirectional formatting, zero-width, tags)
/// and the line and paragraph
/// separators would reach the terminal raw. Every scalar ``TerminalText/needsEscape(_:)``
/// names is written as `\uXXXX` (lower-case hex, as JSON allows): such scalars can only
/// stand inside a JSON string (the structure of a JSON text is ASCII), where the escape is
/// the same character, so the text still parses to the same value. Raw tab, line feed and
/// carriage return are JSON whitespace outside strings (a pretty-printed report) and stay
/// as they are; inside a string an encoder has already escaped them.
enum TerminalSafeJSON {
  /// `json` with every terminal-unsafe scalar outside JSON whitespace written as `\uXXXX`.
  /// A scalar above U+FFFF (a tag character) is written as its escaped surrogate pair.
  static func escaped(_ json: String) -> String {
    TerminalText.replacingUnsafe(json, keeping: ["\t", "\n", "\r"]) {
      JSONStringLiteral.unicodeEscape($0)
    }
  }
}

extension Console {
  /// Prints one JSON text on standard output, made terminal-safe by
  /// ``TerminalSafeJSON/escaped(_:)``. Every `--json` result and error goes through here.
  static func json(_ text: String) {
    out(TerminalSafeJSON.escaped(text))
  }
}
