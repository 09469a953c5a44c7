import AccountDatabase
import Foundation
import UserBackendKit

/// Firestore's typed-value JSON (`docs/wire/firestore.md` "Values") to and from
/// ``UserBackendKit/DocumentValue``.
///
/// Read: `stringValue`, `integerValue` (a decimal string, or a JSON integer; `-0` is 0),
/// `doubleValue` (a number, `-0` keeping its sign, or `"NaN"`, `"Infinity"`, `"-Infinity"`), `booleanValue`, `nullValue`,
/// `timestampValue` (RFC 3339), `arrayValue` (`{}` is empty), `mapValue` (`{}` is empty).
/// `bytesValue`, `referenceValue` and `geoPointValue` are Firestore types without a
/// ``UserBackendKit/DocumentValue`` case: refused with 400 `INVALID_ARGUMENT` naming the
/// field, like any other malformed value. Written: the same shapes, `integerValue` always a
/// string, timestamps with six fractional digits and `Z`, an empty array `{"arrayValue":{}}`.
enum FirestoreValueCoding {
  /// The fields of a `fields` object; `path` names it in errors (`"fields"`).
  static func decodeFields(_ json: Any?, path: String) throws(FirestoreError)
    -> [String: DocumentValue]
  {
    guard let json else { return [:] }
    guard let object = json as? [String: Any] else {
      throw .invalidArgument("Invalid value at '\(path)': expected an object of field values.")
    }
    var fields: [String: DocumentValue] = [:]
    for (name, value) in object {
      fields[name] = try decode(value, path: "\(path).\(name)")
    }
    return fields
  }

  /// One typed value.
  static func decode(_ json: Any, path: String) throws(FirestoreError) -> DocumentValue {
    guard let object = json as? [String: Any], object.count == 1, let entry = object.first
    else {
      throw .invalidArgument(
        "Invalid value at '\(path)': a value is an object with exactly one of stringValue, "
          + "integerValue, doubleValue, booleanValue, nullValue, timestampValue, arrayValue, "
          + "mapValue.")
    }
    let (kind, raw) = (entry.key, entry.value)
    func bad(_ reason: String) -> FirestoreError {
      .invalidArgument("Invalid value at '\(path)' (\(kind)): \(reason)")
    }
    switch kind {
    case "stringValue":
      guard let text = raw as? String else { throw bad("expected a string") }
      return .string(text)
    case "integerValue":
      if let text = raw as? String, let number = Int64(text) { return .integer(number) }
      // As written (Int64.max reads as the NSNumber 9223372036854775807, whose
      // doubleValue rounds up out of Int64's range).
      if JSONBoolean.isNumber(raw), let number = raw as? NSNumber, number.objCType.pointee == 0x71,
        let exact = Int64(String(describing: number))
      {
        return .integer(exact)
      }
      if JSONBoolean.isNumber(raw), let number = raw as? NSNumber,
        let exact = Int64(exactly: number.doubleValue),
        String(describing: number) == String(exact)
          || (exact == 0 && number.doubleValue.sign == .minus)
      {
        // The number `-0` arrives as the double -0.0 (FirestoreNegativeZero): it is 0.
        return .integer(exact)
      }
      throw bad("expected a 64-bit integer as a decimal string")
    case "doubleValue":
      if let text = raw as? String {
        switch text {
        case "NaN": return .double(.nan)
        case "Infinity": return .double(.infinity)
        case "-Infinity": return .double(-.infinity)
        default:
          if let number = DecimalText.jsonNumber(text) { return .double(number) }
          // 1e400, 1e-400: a number, but none a double holds (0 would lose the value).
          if let problem = JSONTextCheck.firstProblem(Array(text.utf8)) {
            throw bad(problem.reason)
          }
        }
      }
      if JSONBoolean.isNumber(raw), let number = raw as? NSNumber {
        return .double(number.doubleValue)
      }
      throw bad("expected a number")
    case "booleanValue":
      guard let flag = JSONBoolean.value(raw) else { throw bad("expected true or false") }
      return .bool(flag)
    case "nullValue":
      guard raw is NSNull || raw as? String == "NULL_VALUE" else { throw bad("expected null") }
      return .null
    case "timestampValue":
      guard let text = raw as? String, let micros = DocumentTimestamp.parseMicroseconds(text)
      else { throw bad("expected an RFC 3339 timestamp between 0001 and 9999") }
      return .timestamp(DocumentTimestamp.date(microseconds: micros))
    case "arrayValue":
      guard let array = raw as? [String: Any] else { throw bad("expected an object") }
      guard let values = array["values"] else { return .array([]) }
      guard let list = values as? [Any] else { throw bad("values must be a list") }
      var result: [DocumentValue] = []
      for (index, element) in list.enumerated() {
        result.append(try decode(element, path: "\(path)[\(index)]"))
      }
      return .array(result)
    case "mapValue":
      guard let map = raw as? [String: Any] else { throw bad("expected an object") }
      return .map(try decodeFields(map["fields"], path: path))
    case "bytesValue", "referenceValue", "geoPointValue":
      throw bad("this emulator stores no \(kind) (the port's DocumentValue has no such case)")
    default:
      throw bad("unknown value type")
    }
  }

  /// The `fields` object of a document.
  static func encodeFields(_ fields: [String: DocumentValue]) -> [String: Any] {
    fields.mapValues(encode)
  }

  /// One typed value (a ``UserBackendKit/DocumentValue/serverTimestamp`` never reaches here:
  /// the store resolves it).
  static func encode(_ value: DocumentValue) -> Any {
    switch value {
    case .string(let text): return ["stringValue": text]
    case .integer(let number): return ["integerValue": String(number)]
    case .double(let number):
      if number.isNaN { return ["doubleValue": "NaN"] }
      if number.isInfinite { return ["doubleValue": number < 0 ? "-Infinity" : "Infinity"] }
      return ["doubleValue": number]
    case .bool(let flag): return ["booleanValue": flag]
    case .timestamp(let date):
      return ["timestampValue": DocumentTimestamp.rfc3339(date) ?? ""]
    case .null, .serverTimestamp: return ["nullValue": NSNull()]
    case .array(let values):
      return ["arrayValue": values.isEmpty ? [:] : ["values": values.map(encode)]]
    case .map(let fields):
      return ["mapValue": fields.isEmpty ? [:] : ["fields": encodeFields(fields)]]
    }
  }

  /// The value at `path` inside `fields`, or `nil`.
  static func value(at path: DocumentFieldPath, in fields: [String: DocumentValue])
    -> DocumentValue?
  {
    guard let head = path.first, let value = fields[head] else { return nil }
    guard path.count > 1 else { return value }
    guard case .map(let nested) = value else { return nil }
    return self.value(at: Array(path.dropFirst()), in: nested)
  }
}

/// Firestore field paths (`updateMask.fieldPaths`, `fieldTransforms[].fieldPath`): names
/// joined by `.`, each either simple (`[A-Za-z_][A-Za-z0-9_]*`) or quoted in backticks
/// with `` \` `` and `\\` escapes (`` `display-name` ``). Read per Unicode scalar, as
/// Firestore does: a `\` or `` ` `` followed by a combining mark is still an escape or a
/// closing quote, not part of one `Character`.
enum FirestoreFieldPath {
  /// The names of `text`, or `nil` when it is not a field path.
  static func parse(_ text: String) -> DocumentFieldPath? {
    var names: [String] = []
    var scalars = Array(text.unicodeScalars)[...]
    while true {
      var name = String.UnicodeScalarView()
      if scalars.first == "`" {
        scalars.removeFirst()
        var closed = false
        while let scalar = scalars.popFirst() {
          if scalar == "\\" {
            guard let escaped = scalars.popFirst() else { return nil }
            name.append(escaped)
          } else if scalar == "`" {
            closed = true
            break
          } else {
            name.append(scalar)
          }
        }
        guard closed, !name.isEmpty else { return nil }
      } else {
        while let scalar = scalars.first, scalar != "." {
          guard scalar == "_" || isASCIILetter(scalar) || isASCIIDigit(scalar) else { return nil }
          name.append(scalar)
          scalars.removeFirst()
        }
        guard let first = name.first, !isASCIIDigit(first) else { return nil }
      }
      names.append(String(name))
      guard let next = scalars.popFirst() else { return names }
      guard next == "." else { return nil }
    }
  }

  private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }

  private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar)
  }
}
