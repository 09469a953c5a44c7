import Foundation
import UserBackendKit

/// An expected document: `{"document": {"fields": {...}, "sameUserAs": "a", "created":
/// true}}` or `{"document": {"nil": true}}` (no document).
///
/// - `fields`: the document's fields, exactly: every name listed must be there and match
///   (``FieldExpectation``), and no other name may be.
/// - `sameUserAs`: the document's `userID` is the user of that earlier step.
/// - `created`: for `createDocument` / `ensureDocument`, whether the step created it.
/// - `nil`: no document (`getDocument` of an absent one); excludes the other keys.
public struct DocumentExpectation: Sendable, Hashable, Codable {
  /// The exact fields, or `nil` to leave them unchecked.
  public var fields: [String: FieldExpectation]?
  /// The label of an earlier step whose user owns the document.
  public var sameUserAs: String?
  /// For creations: whether the step created the document.
  public var created: Bool?
  /// `true`: there must be no document.
  public var isNil: Bool

  private enum CodingKeys: String, CodingKey {
    case fields, sameUserAs, created
    case isNil = "nil"
  }

  /// An expectation value.
  public init(
    fields: [String: FieldExpectation]? = nil, sameUserAs: String? = nil, created: Bool? = nil,
    isNil: Bool = false
  ) {
    self.fields = fields
    self.sameUserAs = sameUserAs
    self.created = created
    self.isNil = isNil
  }

  /// Decodes; `nil` excludes the other keys.
  /// - Throws: a format error for unknown keys, a bad field expectation, `nil: false`, or
  ///   `nil` with another key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["fields", "sameUserAs", "created", "nil"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    fields = try container.decodeIfPresent([String: FieldExpectation].self, forKey: .fields)
    sameUserAs = try container.decodeIfPresent(String.self, forKey: .sameUserAs)
    created = try container.decodeIfPresent(Bool.self, forKey: .created)
    let isNil = try container.decodeIfPresent(Bool.self, forKey: .isNil)
    if isNil == false {
      throw ContractFormatError.invalid(decoder, "nil", "only true is meaningful")
    }
    self.isNil = isNil == true
    if self.isNil, fields != nil || sameUserAs != nil || created != nil {
      throw ContractFormatError.invalid(decoder, nil, "nil excludes fields, sameUserAs and created")
    }
  }

  /// Encodes; `nil` only when true.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(fields, forKey: .fields)
    try container.encodeIfPresent(sameUserAs, forKey: .sameUserAs)
    try container.encodeIfPresent(created, forKey: .created)
    if isNil { try container.encode(true, forKey: .isNil) }
  }
}

/// What one field of an expected document must be:
/// - a typed value in the ``ContractValue`` notation (`{"integer": "42"}`): the same type
///   and value (timestamps to the microsecond, nested arrays and maps exactly);
/// - `{"type": "timestamp"}`: any value of that type (a server timestamp, whose value the
///   contract cannot know);
/// - `{"userIDOf": "label"}`: a string equal to the user ID of that earlier step.
public enum FieldExpectation: Sendable, Hashable, Codable {
  /// Exactly this value.
  case value(DocumentValue)
  /// Any value of this type.
  case ofType(ContractValue.Kind)
  /// A string: the user ID of the labelled step.
  case userIDOf(String)

  private enum Keys: String, CodingKey { case type, userIDOf }

  /// Decodes one of the three forms.
  /// - Throws: a format error for an unknown type, `serverTimestamp` (reads never return
  ///   it), or a bad typed value.
  public init(from decoder: any Decoder) throws {
    let keys = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
    let container = try decoder.container(keyedBy: Keys.self)
    if keys == ["type"] {
      let name = try container.decode(String.self, forKey: .type)
      guard let kind = ContractValue.Kind(rawValue: name), kind != .serverTimestamp else {
        throw ContractFormatError.invalid(
          decoder, "type",
          "unknown type \"\(name)\" (known: string, integer, double, bool, timestamp, null, "
            + "array, map)")
      }
      self = .ofType(kind)
    } else if keys == ["userIDOf"] {
      self = .userIDOf(try container.decode(String.self, forKey: .userIDOf))
    } else {
      let value = try ContractValue(from: decoder).value
      if Self.containsServerTimestamp(value) {
        throw ContractFormatError.invalid(
          decoder, nil, "a read never returns serverTimestamp; expect {\"type\": \"timestamp\"}")
      }
      self = .value(value)
    }
  }

  /// Encodes in the same form.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .value(let value): try ContractValue(value).encode(to: encoder)
    case .ofType(let kind):
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(kind.rawValue, forKey: .type)
    case .userIDOf(let label):
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(label, forKey: .userIDOf)
    }
  }

  private static func containsServerTimestamp(_ value: DocumentValue) -> Bool {
    switch value {
    case .serverTimestamp: true
    case .array(let values): values.contains(where: containsServerTimestamp)
    case .map(let values): values.values.contains(where: containsServerTimestamp)
    default: false
    }
  }

  /// In words: `{"integer": "42"}`, `any timestamp`, `the user ID of step "a"`.
  var summary: String {
    switch self {
    case .value(let value): ContractValue.describe(value)
    case .ofType(let kind): "any \(kind.rawValue)"
    case .userIDOf(let label): "the user ID of step \"\(label)\""
    }
  }
}
