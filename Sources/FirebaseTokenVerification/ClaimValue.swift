import Foundation

/// A JSON value of a claim, for custom claims and anything the typed claims do not name.
public enum ClaimValue: Sendable, Hashable {
  /// A JSON string.
  case string(String)
  /// A JSON number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// JSON `null`.
  case null
  /// A JSON array.
  case array([ClaimValue])
  /// A JSON object.
  case object([String: ClaimValue])

  /// The value of a `JSONSerialization` result; `nil` for anything JSON cannot hold.
  init?(json value: Any) {
    switch value {
    case let text as String: self = .string(text)
    case let number as NSNumber:
      // JSONSerialization gives booleans as NSNumber too, with the `char` type encoding
      // (JSON itself never produces an 8-bit integer).
      if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
        self = .bool(number.boolValue)
      } else {
        self = .number(number.doubleValue)
      }
    case is NSNull: self = .null
    case let array as [Any]: self = .array(array.compactMap(ClaimValue.init(json:)))
    case let object as [String: Any]:
      self = .object(object.compactMapValues(ClaimValue.init(json:)))
    default: return nil
    }
  }

  /// The value as `JSONSerialization` writes it (`String`, `Double`, `Bool`, `NSNull`,
  /// arrays and dictionaries of those).
  public var jsonObject: Any {
    switch self {
    case .string(let text): text
    case .number(let number): number
    case .bool(let flag): flag
    case .null: NSNull()
    case .array(let values): values.map(\.jsonObject)
    case .object(let members): members.mapValues(\.jsonObject)
    }
  }
}
