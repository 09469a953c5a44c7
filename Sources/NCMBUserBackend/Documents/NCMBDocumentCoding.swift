import Foundation
import UserBackendKit

/// The JSON form of document values in an NCMB object (docs/wire/ncmb.md, "User fields"):
///
/// | ``DocumentValue`` | wire |
/// |---|---|
/// | `.string`, `.bool`, `.null` | JSON string, `true`/`false`, `null` |
/// | `.integer(n)` | a JSON number without fraction or exponent (`42`) |
/// | `.double(d)` | a JSON number that always has a fraction or an exponent (`2.0`, `1e+300`), so it reads back as a double; NaN and ±infinity cannot be written |
/// | `.timestamp(t)` | `{"__type": "Date", "iso": "2026-11-30T12:00:00.123Z"}` (UTC, milliseconds) |
/// | `.array`, `.map` | JSON array, JSON object |
///
/// Reading: a number written without fraction or exponent that fits an Int64 is
/// `.integer`, any other number `.double`; `{"__type": "Date", "iso": …}` is `.timestamp`;
/// any other object (also the service's `GeoPoint`, `Pointer`, `File` objects) is a `.map`
/// of its members.
enum NCMBDocumentCoding {
  /// The JSON text of `value`; ``DocumentValue/serverTimestamp`` is written as `now` (NCMB
  /// has no server-side time transform).
  /// - Precondition: doubles are finite (checked by ``NCMBDocumentStore``).
  static func json(_ value: DocumentValue, now: Date) -> String {
    switch value {
    case .string(let text): return string(text)
    case .integer(let number): return String(number)
    case .double(let number):
      let text = "\(number)"
      return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .timestamp(let date): return dateJSON(date)
    case .serverTimestamp: return dateJSON(now)
    case .array(let values):
      return "[" + values.map { json($0, now: now) }.joined(separator: ",") + "]"
    case .map(let entries): return object(entries.mapValues { json($0, now: now) })
    }
  }

  /// `{"__type":"Date","iso":"…Z"}` with milliseconds (rounded to the nearest).
  /// - Precondition: `date` is in 0001-01-01 … 9999-12-31 (``DocumentValidation``).
  static func dateJSON(_ date: Date) -> String {
    #"{"__type":"Date","iso":"# + string(milliseconds(date)) + "}"
  }

  /// The last millisecond NCMB can hold: 9999-12-31T23:59:59.999Z, in milliseconds since
  /// 1970.
  static let latestMilliseconds: Int64 = 253_402_300_799_999

  /// RFC 3339 UTC with three fractional digits, rounded to the nearest millisecond:
  /// `2026-01-01T00:00:00.123Z`. The last half millisecond of 9999 (which rounding would
  /// carry into year 10000, a date NCMB refuses with `E400002`) is written as
  /// ``latestMilliseconds``: every timestamp ``DocumentValidation`` accepts is stored.
  static func milliseconds(_ date: Date) -> String {
    guard let micros = DocumentTimestamp.microseconds(of: date) else { return "" }
    let rounded = (micros + 500 - ((micros + 500) % 1_000 + 1_000) % 1_000) / 1_000
    let millis = min(rounded, latestMilliseconds)
    let text = DocumentTimestamp.rfc3339(microseconds: millis * 1_000)
    return String(text.dropLast(4)) + "Z"
  }

  /// A JSON object of already encoded member values, keys sorted.
  static func object(_ members: [String: String]) -> String {
    "{"
      + members.sorted { $0.key < $1.key }.map { string($0.key) + ":" + $0.value }
      .joined(separator: ",") + "}"
  }

  /// A JSON object of already encoded member values, in the order given; names that are
  /// the same text in other bytes stay two members (a Swift dictionary would merge them).
  static func object(pairs members: [(name: String, value: String)]) -> String {
    "{" + members.map { string($0.name) + ":" + $0.value }.joined(separator: ",") + "}"
  }

  /// A JSON string literal.
  static func string(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }

  /// The value of a member of a parsed (`JSONSerialization`) object.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming `field` for a `Date` whose
  ///   `iso` is not RFC 3339 or a value JSON cannot hold.
  static func value(_ any: Any, field: String) throws(UserBackendError) -> DocumentValue {
    switch any {
    case is NSNull:
      return .null
    case let text as String:
      return .string(text)
    case let number as NSNumber:
      return numberValue(number)
    case let values as [Any]:
      var result: [DocumentValue] = []
      for element in values { result.append(try value(element, field: field)) }
      return .array(result)
    case let members as [String: Any]:
      if members["__type"] as? String == "Date" {
        guard let iso = members["iso"] as? String, let date = DocumentTimestamp.parse(iso) else {
          throw UserBackendError(
            .malformedResponse(
              reason: "the user object's field \(field) is a Date without a valid iso"))
        }
        return .timestamp(date)
      }
      var result: [String: DocumentValue] = [:]
      for (key, element) in members { result[key] = try value(element, field: field) }
      return .map(result)
    default:
      throw UserBackendError(
        .malformedResponse(reason: "the user object's field \(field) has an unknown JSON type"))
    }
  }

  /// A number as `JSONSerialization` parsed it: its Objective-C type tells a Boolean
  /// (`c`), an integer and a number with a fraction or exponent (`d`) apart.
  private static func numberValue(_ number: NSNumber) -> DocumentValue {
    if let decimal = number as? NSDecimalNumber {
      if let integer = Int64(decimal.stringValue) { return .integer(integer) }
      return .double(decimal.doubleValue)
    }
    switch String(cString: number.objCType) {
    case "c", "B": return .bool(number.boolValue)
    case "d", "f": return .double(number.doubleValue)
    case "Q":
      if let integer = Int64(exactly: number.uint64Value) { return .integer(integer) }
      return .double(number.doubleValue)
    default: return .integer(number.int64Value)
    }
  }
}
