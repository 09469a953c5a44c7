/// HTML's five special characters as character references, written once for the package:
/// the emulator's page escapes text it puts into HTML with it, and the cassette leak scan
/// looks for a secret written this way.
package enum HTMLEscaping {
  /// `text` with `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`.
  /// Decided per Unicode scalar, as an HTML parser reads: a `<` followed by a combining
  /// mark (one Swift `Character`) is still escaped.
  package static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
