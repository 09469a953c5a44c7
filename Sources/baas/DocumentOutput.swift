import Foundation
import UserBackendKit

/// How `baas doc` prints the user's document.
///
/// `--json`: `{"document":{"createTime":…,"fields":{…},"updateTime":…}}` or
/// `{"document":null}`. Field values are plain JSON: a string is a JSON string, an integer
/// a number without a fraction (`42`), a double a number with a fraction or an exponent
/// (`2.0`, `1e+300`; NaN and the infinities as the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"`), a Boolean, `null`, an array, a map an object (keys sorted), and a
/// timestamp a string in ``Timestamp`` form (`"2026-12-01T02:14:16.123Z"`). `createTime`
/// and `updateTime` are such strings, or `null` when the backend did not say.
///
/// Text: one `field: value` line per field, sorted by name, the name as `baas doc set`
/// reads it (``FieldName``: plain, or a JSON string for an odd name), the value in the
/// notation `baas doc set` reads (``FieldAssignment``): a timestamp is `@2026-12-01T02:14:16.123Z`,
/// a string is bare unless it would read as something else (then it is JSON-quoted:
/// `"42"`, `""`), arrays and maps are JSON. Every line is terminal-safe
/// (``TerminalText``): names and values come from the server.
enum DocumentOutput {
  /// The whole `--json` object.
  static func json(_ document: UserDocument?) -> String {
    "{\"document\":\(documentJSON(document))}"
  }

  /// The document object, or `null`.
  static func documentJSON(_ document: UserDocument?) -> String {
    guard let document else { return "null" }
    let fields = valueJSON(.map(document.fields))
    return "{\"createTime\":\(timeJSON(document.createTime)),\"fields\":\(fields),"
      + "\"updateTime\":\(timeJSON(document.updateTime))}"
  }

  private static func timeJSON(_ date: Date?) -> String {
    date.map { jsonString(Timestamp.string($0)) } ?? "null"
  }

  /// One value as plain JSON (see the type's description).
  static func valueJSON(_ value: DocumentValue) -> String {
    switch value {
    case .string(let text): jsonString(text)
    case .integer(let integer): String(integer)
    case .double(let double): double.isFinite ? double.description : jsonString(nonFinite(double))
    case .bool(let bool): bool ? "true" : "false"
    case .timestamp(let date): jsonString(Timestamp.string(date))
    case .null: "null"
    case .array(let values): "[" + values.map(valueJSON).joined(separator: ",") + "]"
    case .map(let fields):
      "{"
        + fields.keys.sorted().map { jsonString($0) + ":" + valueJSON(fields[$0]!) }
        .joined(separator: ",") + "}"
    case .serverTimestamp: jsonString(FieldAssignment.serverTime)
    }
  }

  private static func nonFinite(_ double: Double) -> String {
    double.isNaN ? "NaN" : (double < 0 ? "-Infinity" : "Infinity")
  }

  /// `text` as a JSON string. Besides what JSON requires, every character
  /// ``TerminalText`` escapes (C1 controls, bidirectional formatting) is written as
  /// `\uXXXX`, so the JSON is terminal-safe too.
  static func jsonString(_ text: String) -> String {
    JSONStringLiteral.quoted(text, alsoEscaping: TerminalText.needsEscape)
  }

  /// The text lines: `field: value`, sorted; `(no fields)` for an empty document and
  /// `No document.` for none.
  static func lines(_ document: UserDocument?) -> [String] {
    guard let document else { return ["No document."] }
    if document.fields.isEmpty { return ["(no fields)"] }
    return document.fields.keys.sorted().map { name in
      TerminalText.safe("\(FieldName.printed(name)): \(text(document.fields[name]!))")
    }
  }

  /// One value in the notation `baas doc set` reads.
  static func text(_ value: DocumentValue) -> String {
    switch value {
    case .string(let string):
      let bare =
        !string.isEmpty && string.trimmingCharacters(in: .whitespaces) == string
        && !string.unicodeScalars.contains(where: TerminalText.needsEscape)
        && FieldAssignment.value(string) == .notJSON
      return bare ? string : jsonString(string)
    case .double(let double) where !double.isFinite: return nonFinite(double)
    case .timestamp(let date): return "@" + Timestamp.string(date)
    default: return valueJSON(value)
    }
  }
}
