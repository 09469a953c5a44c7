import Foundation
import UserBackendKit

/// Names what is wrong with an answer body that `JSONDecoder` refused as a whole although
/// it is JSON by the grammar: a number no double holds (`"expiresIn": 1e999`), a member
/// name given twice, nesting past the reader's depth. Without this, both adapters called
/// such a body "not valid JSON", which it is, and a value out of range read differently
/// from the same value in a string ("invalid value at expiresIn").
public enum UnreadableJSON {
  /// The strict reader's reason (``UserBackendKit/DocumentJSONReader``) when `body` is JSON
  /// it cannot hold, at most 160 characters; `nil` when `body` is not JSON at all (or is
  /// readable). The reason names a member or a number's text, never a string value.
  public static func reason(_ body: Data) -> String? {
    guard case .unusable(let reason) = DocumentJSONReader.read(utf8: Array(body)) else {
      return nil
    }
    return String(reason.prefix(160))
  }
}
