import Foundation
import UserBackendKit

/// A typed document field value in contract JSON: an object with exactly one key that
/// names the type (JSON alone cannot tell an integer from a double, or a timestamp from a
/// string).
///
/// | JSON | ``UserBackendKit/DocumentValue`` |
/// |---|---|
/// | `{"string": "x"}` | `.string("x")` |
/// | `{"integer": "9007199254740993"}` or `{"integer": 42}` | `.integer` (64-bit; write values beyond ±2^53 as a string) |
/// | `{"double": 0.1}` | `.double` |
/// | `{"bool": true}` | `.bool` |
/// | `{"timestamp": "2026-01-02T03:04:05.678Z"}` | `.timestamp` (RFC 3339, up to 9 fraction digits, compared to the microsecond) |
/// | `{"null": true}` | `.null` |
/// | `{"array": [typed, …]}` | `.array` |
/// | `{"map": {"name": typed, …}}` | `.map` |
/// | `{"serverTimestamp": true}` | `.serverTimestamp` (writes only, not inside an array) |
///
/// Strings may contain `{{variables}}`; timestamps are literal. Integers are
/// written back as strings, so that no step loses precision on its way through the
/// runner's variable substitution.
public struct ContractValue: Sendable, Hashable, Codable {
  /// The value.
  public var value: DocumentValue

  /// Wraps a value.
  public init(_ value: DocumentValue) { self.value = value }

  /// The type names, also used by `{"type": name}` field expectations.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case string, integer, double, bool, timestamp, null, array, map, serverTimestamp
  }

  /// Decodes the one-key form.
  /// - Throws: a format error naming the problem (no or several keys, an unknown type, an
  ///   integer out of the 64-bit range, a malformed timestamp, `false` for `null`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let keys = container.allKeys
    let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
    guard keys.count == 1, let key = keys.first else {
      throw ContractFormatError.invalid(
        decoder, nil, "a typed value is an object with exactly one of \(names)")
    }
    guard let kind = Kind(rawValue: key.stringValue) else {
      throw ContractFormatError(
        codingPath: decoder.codingPath + [key],
        kind: .unknownKey(key.stringValue, allowed: Kind.allCases.map(\.rawValue)))
    }
    func invalid(_ message: String) -> ContractFormatError {
      ContractFormatError.invalid(decoder, key.stringValue, message)
    }
    switch kind {
    case .string: value = .string(try container.decode(String.self, forKey: key))
    case .integer:
      if let text = try? container.decode(String.self, forKey: key) {
        guard let number = Int64(text) else {
          throw invalid("\"\(text)\" is not a 64-bit integer")
        }
        value = .integer(number)
      } else if let number = try? container.decode(Int64.self, forKey: key) {
        value = .integer(number)
      } else {
        throw invalid("expected a 64-bit integer (a whole number or a string of digits)")
      }
    case .double:
      let number = try container.decode(Double.self, forKey: key)
      value = .double(number)
    case .bool: value = .bool(try container.decode(Bool.self, forKey: key))
    case .timestamp:
      let text = try container.decode(String.self, forKey: key)
      guard let date = ContractTimestamp.parse(text) else {
        throw invalid("\"\(text)\" is not an RFC 3339 timestamp (2026-01-02T03:04:05.678Z)")
      }
      value = .timestamp(date)
    case .null, .serverTimestamp:
      guard try container.decode(Bool.self, forKey: key) else {
        throw invalid("only true is meaningful")
      }
      value = kind == .null ? .null : .serverTimestamp
    case .array:
      let values = try container.decode([ContractValue].self, forKey: key)
      if values.contains(where: { $0.value == .serverTimestamp }) {
        throw invalid("serverTimestamp is not allowed inside an array")
      }
      value = .array(values.map(\.value))
    case .map:
      value = .map(
        try container.decode([String: ContractValue].self, forKey: key).mapValues(\.value))
    }
  }

  /// Encodes the one-key form (integers as strings).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    switch value {
    case .string(let text):
      try container.encode(text, forKey: AnyCodingKey("string"))
    case .integer(let number): try container.encode(String(number), forKey: AnyCodingKey("integer"))
    case .double(let number): try container.encode(number, forKey: AnyCodingKey("double"))
    case .bool(let flag): try container.encode(flag, forKey: AnyCodingKey("bool"))
    case .timestamp(let date):
      try container.encode(ContractTimestamp.format(date), forKey: AnyCodingKey("timestamp"))
    case .null: try container.encode(true, forKey: AnyCodingKey("null"))
    case .serverTimestamp: try container.encode(true, forKey: AnyCodingKey("serverTimestamp"))
    case .array(let values):
      try container.encode(values.map(ContractValue.init), forKey: AnyCodingKey("array"))
    case .map(let values):
      try container.encode(values.mapValues(ContractValue.init), forKey: AnyCodingKey("map"))
    }
  }

  /// The value as compact JSON in this notation, keys sorted (for reports).
  static func describe(_ value: DocumentValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(ContractValue(value)) else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
  }

  /// Fields in this notation, keys sorted: `{"a": {"string": "x"}, …}`.
  static func describe(_ fields: [String: DocumentValue]) -> String {
    "{"
      + fields.keys.sorted().map { "\"\($0)\": " + describe(fields[$0] ?? .null) }
      .joined(separator: ", ") + "}"
  }

  /// Whether two values are equal: same type and value, recursively, timestamps to the
  /// microsecond (the finest precision a backend keeps), doubles exactly.
  static func same(_ expected: DocumentValue, _ actual: DocumentValue) -> Bool {
    switch (expected, actual) {
    case (.timestamp(let a), .timestamp(let b)):
      return ContractTimestamp.microseconds(a) == ContractTimestamp.microseconds(b)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    case (.map(let a), .map(let b)):
      return Set(a.keys) == Set(b.keys)
        && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
    default:
      return expected == actual
    }
  }

  /// The type name of a value.
  static func kind(of value: DocumentValue) -> Kind {
    switch value {
    case .string: .string
    case .integer: .integer
    case .double: .double
    case .bool: .bool
    case .timestamp: .timestamp
    case .null: .null
    case .array: .array
    case .map: .map
    case .serverTimestamp: .serverTimestamp
    }
  }
}

/// RFC 3339 timestamps with up to nine fraction digits, UTC `Z` or an offset.
enum ContractTimestamp {
  /// The date of `text`, or `nil` when it is not RFC 3339.
  static func parse(_ text: String) -> Date? {
    var base = text
    var fraction = 0.0
    if let dot = text.firstIndex(of: ".") {
      let digits = text[text.index(after: dot)...].prefix(while: \.isASCII).prefix {
        $0.isNumber
      }
      guard !digits.isEmpty, digits.count <= 9, let value = Double("0." + digits) else {
        return nil
      }
      fraction = value
      base = String(text[..<dot]) + String(text[text.index(dot, offsetBy: 1 + digits.count)...])
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let whole = formatter.date(from: base) else { return nil }
    return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
  }

  /// `2026-01-02T03:04:05.678000Z` (UTC, microseconds).
  static func format(_ date: Date) -> String {
    let micros = microseconds(date)
    let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
    let fraction = micros - seconds * 1_000_000
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    let digits = String(fraction)
    return String(text.dropLast()) + "." + String(repeating: "0", count: 6 - digits.count)
      + digits + "Z"
  }

  /// Microseconds since 1970, rounded.
  static func microseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
    guard value.isFinite, abs(value) < 9e18 else { return value < 0 ? .min : .max }
    return Int64(value)
  }
}
