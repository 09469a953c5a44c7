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
    guard argument.hasPrefix("\"") else {
      guard untilEquals, let equals = argument.firstIndex(of: "=") else {
        return (argument, argument[argument.endIndex...])
      }
      return (String(argument[..<equals]), argument[equals...])
    }
    var escaped = false
    var index = argument.index(after: argument.startIndex)
    while index < argument.endIndex {
      let character = argument[index]
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        let end = argument.index(after: index)
        guard case .value(.string(let name)) = DocumentJSONReader.read(String(argument[..<end]))
        else { return nil }
        return (name, argument[end...])
      }
      index = argument.index(after: index)
    }
    return nil
  }

  /// The message for a FIELD that starts with `"` but is not a JSON string.
  static let notJSONString =
    "starts with '\"' but is not a JSON string such as \"a\\u001bb\" (a FIELD that "
    + "starts with '\"' is read as JSON, as doc get prints odd names)"
}
