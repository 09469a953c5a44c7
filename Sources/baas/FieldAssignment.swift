import UserBackendKit

/// The `FIELD=VALUE` arguments of `baas doc set`.
///
/// FIELD is the text before the first `=`, or a JSON string when it starts with `"`
/// (`'"a\u001bb"=1'`, `'"x=y"=2'`): the form `doc get` prints names in that are not plain
/// text (``FieldName``).
///
/// VALUE is read in this order:
/// - `@now`: the server's time when it applies the write (`.serverTimestamp`);
/// - `@` and an RFC 3339 timestamp (`@2026-12-01T09:30:00Z`, `@2026-12-01T09:30:00.5+09:00`):
///   a `.timestamp` (the form `baas doc get` prints timestamps in). A VALUE that starts
///   like one (`@` and `YYYY-MM-DD`) but is not a usable timestamp is refused naming the
///   field, never stored as a string: one outside 0001-01-01…9999-12-31T23:59:59.999999Z
///   UTC after its offset (`@9999-12-31T23:59:59-01:00` is in year 10000; no backend can
///   store it), a day or time that does not exist, or a missing offset;
/// - `NaN`, `Infinity`, `-Infinity`: those doubles (backends without them, NCMB, refuse
///   the write naming the field);
/// - JSON (``DocumentJSONReader``): `42` an integer, `2.0` or `1e3` a double, `true`,
///   `null`, `"42"` a string, `[…]` an array, `{…}` a map;
/// - anything else, including an empty VALUE: that text as a string (`name=Ada`,
///   `handle=@ada`). A string that would read as one of the above is written as JSON:
///   `code='"42"'`, `word='"@now"'`, `text='"NaN"'`.
enum FieldAssignment {
  /// The VALUE that stands for the server's time.
  static let serverTime = "@now"

  /// Reads the arguments into fields.
  /// - Returns: the fields, and notes for standard error (a VALUE that starts like JSON
  ///   but is not JSON, stored as a string).
  /// - Throws: ``UsageError`` naming the argument or the field: an argument without `=`,
  ///   an empty FIELD, a FIELD given twice, a timestamp out of range or impossible, a JSON
  ///   VALUE that cannot be stored (too deep, a key twice, a number out of range).
  static func parse(_ arguments: [String], command: String) throws(UsageError) -> (
    fields: [String: DocumentValue], notes: [String]
  ) {
    guard !arguments.isEmpty else {
      throw UsageError("give at least one FIELD=VALUE", command: command)
    }
    var fields: [String: DocumentValue] = [:]
    var notes: [String] = []
    for (number, argument) in zip(1..., arguments) {
      guard let split = FieldName.read(argument, untilEquals: true) else {
        throw UsageError(
          "argument \(number): the FIELD \(FieldName.notJSONString)", command: command)
      }
      let (field, rest) = (split.name, split.rest)
      // Per code point: an "=" followed by a combining mark is still the separator.
      guard rest.unicodeScalars.first == "=" else {
        throw UsageError(
          "argument \(number) is not FIELD=VALUE (it has no \"=\" after the FIELD)",
          command: command)
      }
      let text = String(rest.unicodeScalars.dropFirst())
      guard !field.isEmpty else {
        throw UsageError(
          "argument \(number): the FIELD before \"=\" is empty (FIELD=VALUE)", command: command)
      }
      let shown = TerminalText.safe(field)
      if let earlier = fields.index(forKey: field).map({ fields[$0].key }) {
        guard Array(earlier.utf8) == Array(field.utf8) else {
          // Canonically equivalent: one key to a Swift dictionary, two fields to a backend.
          throw UsageError(
            "fields \(TerminalText.safe(JSONTextCheck.shown(earlier))) and "
              + "\(TerminalText.safe(JSONTextCheck.shown(field))) are the same text in other "
              + "bytes (canonically equivalent Unicode); give one of them", command: command)
        }
        throw UsageError("field \(shown) is given twice", command: command)
      }
      switch value(text) {
      case .value(let value):
        fields[field] = value
      case .unusable(let reason):
        throw UsageError("field \(shown): \(reason)", command: command)
      case .notJSON:
        fields[field] = .string(text)
        if let first = text.first, "{[\"".contains(first) {
          notes.append("note: the value of \(shown) is not valid JSON; it is stored as a string")
        }
      }
    }
    return (fields, notes)
  }

  /// One VALUE by the rules above; `.notJSON` means "store the text as a string".
  static func value(_ text: String) -> DocumentJSONReader.Outcome {
    if text == serverTime { return .value(.serverTimestamp) }
    if text.hasPrefix("@") {
      let body = String(text.dropFirst())
      switch DocumentTimestamp.read(body) {
      case .microseconds(let micros):
        return .value(.timestamp(DocumentTimestamp.date(microseconds: micros)))
      case .outOfRange:
        return .unusable(
          reason: "the timestamp \(TerminalText.safe(body)) is outside the range every backend "
            + "stores: a timestamp must be between 0001-01-01T00:00:00Z and "
            + "9999-12-31T23:59:59.999999Z in UTC (after its offset)")
      case .malformed where startsLikeATimestamp(body):
        return .unusable(
          reason: "\(TerminalText.safe(body)) is not a valid RFC 3339 timestamp such as "
            + "2026-12-01T09:30:00Z (a real day and time, then Z or an offset ±HH:MM)")
      case .malformed: break
      }
    }
    if text.isEmpty { return .value(.string("")) }
    // The non-finite doubles, spelled as `doc get` prints them (Firestore's JSON names):
    // without this a double NaN printed `NaN` and read back as the string "NaN".
    switch text {
    case "NaN": return .value(.double(.nan))
    case "Infinity": return .value(.double(.infinity))
    case "-Infinity": return .value(.double(-.infinity))
    default: return DocumentJSONReader.read(text)
    }
  }

  /// `YYYY-MM-DD` at the start: text meant as a timestamp (a handle like `@ada` or
  /// `@2026` is not).
  private static func startsLikeATimestamp(_ text: String) -> Bool {
    let bytes = Array(text.utf8.prefix(10))
    guard bytes.count == 10 else { return false }
    return bytes.enumerated().allSatisfy { index, byte in
      index == 4 || index == 7
        ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
  }
}
