import Foundation
import UserBackendKit

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

  /// The value of a claim as the token's JSON reader gave it; `nil` for the document-only
  /// cases (timestamps), which JSON text never produces. Integers become numbers.
  init?(document value: DocumentValue) {
    switch value {
    case .string(let text): self = .string(text)
    case .integer(let number): self = .number(Double(number))
    case .double(let number): self = .number(number)
    case .bool(let flag): self = .bool(flag)
    case .null: self = .null
    case .array(let values): self = .array(values.compactMap(ClaimValue.init(document:)))
    case .map(let members): self = .object(members.compactMapValues(ClaimValue.init(document:)))
    case .timestamp, .serverTimestamp: return nil
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
