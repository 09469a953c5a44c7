import Foundation
import UserBackendKit

/// How `baas doc` writes and reads a field name that is not plain text.
///
/// `doc get` prints a name as it is when it reads back as itself: `nickname: Ada`. Any
/// other name is printed as a JSON string (`"a\u001bb": 1`, `"x=y": 2`): one that is
/// empty, holds a character ``TerminalText`` escapes (a control character such as ESC or
/// tab, an invisible or bidirectional formatting character), holds `=` (which ends FIELD
/// in `FIELD=VALUE`), starts with `"`, or starts or ends with a space. `doc set` and
/// `doc unset` read a FIELD that starts with `"` as such a JSON string, so every printed
/// name can be given back: `baas doc set '"a\u001bb"=2'`. (`TerminalText`'s own form,
/// `\u{1B}`, is not used for names: the shell passes it as six characters and a FIELD
/// holding it would name another field.)
enum FieldName {
  /// `name` as `doc get` prints it (see the type).
  static func printed(_ name: String) -> String {
    let plain =
      !name.isEmpty && !name.hasPrefix("\"") && !name.contains("=")
      && name.trimmingCharacters(in: .whitespaces) == name
      && !name.unicodeScalars.contains(where: TerminalText.needsEscape)
    return plain ? name : DocumentOutput.jsonString(name)
  }

  /// Splits a FIELD off the start of `argument`: a JSON string when it starts with `"`
  /// (up to its closing quote), else everything up to the first `=` (or the whole
  /// argument when `untilEquals` is `false`).
  ///
  /// - Returns: the name and what follows it; `nil` for a `"` that starts no complete
  ///   JSON string.
  static func read(_ argument: String, untilEquals: Bool) -> (name: String, rest: Substring)? {
    // Per Unicode scalar, never per Character: an "=" or a quote followed by a combining
    // mark is one Character, and must still end the name (the text is split where the
    // user wrote the syntax character).
    let scalars = argument.unicodeScalars
    guard scalars.first == "\"" else {
      guard untilEquals, let equals = scalars.firstIndex(of: "=") else {
        return (argument, argument[argument.endIndex...])
      }
      return (String(scalars[..<equals]), Substring(scalars[equals...]))
    }
    var escaped = false
    var index = scalars.index(after: scalars.startIndex)
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if escaped {
        escaped = false
      } else if scalar == "\\" {
        escaped = true
      } else if scalar == "\"" {
        let end = scalars.index(after: index)
        guard case .value(.string(let name)) = DocumentJSONReader.read(String(scalars[..<end]))
        else { return nil }
        return (name, Substring(scalars[end...]))
      }
      index = scalars.index(after: index)
    }
    return nil
  }

  /// The message for a FIELD that starts with `"` but is not a JSON string.
  static let notJSONString =
    "starts with '\"' but is not a JSON string such as \"a\\u001bb\" (a FIELD that "
    + "starts with '\"' is read as JSON, as doc get prints odd names)"
}
