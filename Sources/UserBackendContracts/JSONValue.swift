import Foundation

/// Any JSON value, used for the free-form claims of an identity-provider ID token in a
/// contract step.
public enum JSONValue: Sendable, Hashable, Codable {
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])
  /// `null`.
  case null

  /// Decodes any JSON value.
  /// - Throws: `DecodingError` only for input that is not JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value as it was read.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    case .null: try container.encodeNil()
    }
  }

  /// The value as a `JSONSerialization`-compatible object (`String`, `Int` or `Double`,
  /// `Bool`, arrays, dictionaries, `NSNull`).
  public var foundationObject: Any {
    switch self {
    case .string(let value): value
    case .number(let value):
      value.rounded() == value && abs(value) < 1e15 ? Int(value) as Any : value as Any
    case .bool(let value): value
    case .array(let values): values.map(\.foundationObject)
    case .object(let values): values.mapValues(\.foundationObject)
    case .null: NSNull()
    }
  }

  /// The same value with every string passed through `transform` (variable substitution).
  func mapStrings(_ transform: (String) throws -> String) rethrows -> JSONValue {
    switch self {
    case .string(let value): .string(try transform(value))
    case .array(let values): .array(try values.map { try $0.mapStrings(transform) })
    case .object(let values): .object(try values.mapValues { try $0.mapStrings(transform) })
    case .number, .bool, .null: self
    }
  }

  /// Every string inside the value.
  var allStrings: [String] {
    switch self {
    case .string(let value): [value]
    case .array(let values): values.flatMap(\.allStrings)
    case .object(let values): values.keys.sorted().flatMap { values[$0]?.allStrings ?? [] }
    case .number, .bool, .null: []
    }
  }
}
