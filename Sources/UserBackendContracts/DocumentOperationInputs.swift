import Foundation
import UserBackendKit

/// Whose document a document step addresses: `{"user": "label"}` is the user of an
/// earlier labelled step (its ID is sent, so another user's document is refused by the
/// backend's owner rule); no input or no `user` means the signed-in user (`userID: nil`).
public struct DocumentTarget: Sendable, Hashable, Codable {
  /// The label of an earlier step whose user owns the document, or `nil` for the
  /// signed-in user.
  public var user: String?

  /// A target.
  public init(user: String? = nil) { self.user = user }

  /// Decodes; `user` is optional.
  /// - Throws: a format error for unknown keys.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["user"])
    user = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
      String.self, forKey: .user)
  }
}

/// Input of `createDocument`: `{"fields": {"name": typed, …}, "user": "label"}`; fields in
/// the ``ContractValue`` notation.
public struct DocumentCreateInput: Sendable, Hashable, Codable {
  /// The initial fields.
  public var fields: [String: ContractValue]
  /// Whose document (see ``DocumentTarget``).
  public var user: String?

  /// An input value.
  public init(fields: [String: ContractValue], user: String? = nil) {
    self.fields = fields
    self.user = user
  }

  /// Decodes; `fields` is required.
  /// - Throws: a format error for unknown keys or a bad value.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["fields", "user"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    fields = try container.decode([String: ContractValue].self, forKey: .fields)
    user = try container.decodeIfPresent(String.self, forKey: .user)
  }
}

/// Input of `updateDocument`: `{"fields": {…}, "remove": ["name", …], "user": "label"}`;
/// at least one of `fields` and `remove`.
public struct DocumentUpdateInput: Sendable, Hashable, Codable {
  /// The fields to set.
  public var fields: [String: ContractValue]
  /// The field names to remove (sorted).
  public var remove: [String]
  /// Whose document (see ``DocumentTarget``).
  public var user: String?

  /// An input value.
  public init(fields: [String: ContractValue] = [:], remove: [String] = [], user: String? = nil) {
    self.fields = fields
    self.remove = remove.sorted()
    self.user = user
  }

  /// Decodes; `fields` or `remove` (or both) must be given.
  /// - Throws: a format error for unknown keys, a bad value, or neither key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["fields", "remove", "user"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let fields = try container.decodeIfPresent([String: ContractValue].self, forKey: .fields)
    let remove = try container.decodeIfPresent([String].self, forKey: .remove)
    user = try container.decodeIfPresent(String.self, forKey: .user)
    guard fields != nil || remove != nil else {
      throw ContractFormatError.invalid(decoder, nil, "give fields, remove or both")
    }
    self.fields = fields ?? [:]
    self.remove = (remove ?? []).sorted()
  }
}
