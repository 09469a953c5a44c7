/// Writes JSON string literals (RFC 8259 §7) by hand, for the writers that cannot use
/// `JSONEncoder` or `JSONSerialization`: the emulator's NCMB answers (which keep each
/// number's kind) and `baas`'s document and terminal-safe output.
package enum JSONStringLiteral {
  /// `text` as a JSON string literal: `"` and `\` escaped, `\b \f \n \r \t` as such, every
  /// other scalar below U+0020, and every scalar `alsoEscaping` names, as `\uXXXX`
  /// (``unicodeEscape(_:)``). Everything else is written as it is.
  package static func quoted(
    _ text: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }
  ) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      case _ where scalar.value < 0x20 || alsoEscaping(scalar): result += unicodeEscape(scalar)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// `scalar` as JSON's `\uXXXX` (four lower-case hex digits), or as the escaped UTF-16
  /// surrogate pair `\uXXXX\uXXXX` for a scalar above U+FFFF, the only form JSON has for it.
  package static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
    func hex4(_ unit: UInt16) -> String {
      let digits = String(unit, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    return UTF16.encode(scalar)?.map(hex4).joined() ?? ""
  }
}
