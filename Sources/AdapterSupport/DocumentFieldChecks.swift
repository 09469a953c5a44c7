import Foundation
import UserBackendKit

/// The checks of a document write that hold on every backend, made before any request:
/// each failure is `.invalidInput(field: "fields.<name>")` naming the top-level field.
///
/// - field names (top level and inside maps) are non-empty;
/// - a field is not both set and removed;
/// - ``UserBackendKit/DocumentValue/serverTimestamp`` is not inside an array;
/// - maps and arrays nest at most ``maximumDepth`` levels (Firestore's limit);
/// - timestamps lie in 0001-01-01 … 9999-12-31 UTC (``DocumentTimestamp``).
///
/// Backend rules (NCMB's reserved names, Firestore's `__…__` names) are the adapters' own.
package enum DocumentFieldChecks {
  /// The deepest nesting of maps and arrays a value may have (Firestore: 20).
  package static let maximumDepth = 20

  /// Checks the fields and removals of one write.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput(field: "fields.<name>")`.
  package static func check(fields: [String: DocumentValue], removing: Set<String> = [])
    throws(UserBackendError)
  {
    for name in removing.sorted() {
      guard !name.isEmpty else { throw invalid("", "a field name must not be empty") }
      if fields[name] != nil {
        throw invalid(name, "is both set and removed in one write")
      }
    }
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      guard !name.isEmpty else { throw invalid("", "a field name must not be empty") }
      try check(value, field: name, depth: 0, inArray: false)
    }
  }

  private static func check(_ value: DocumentValue, field: String, depth: Int, inArray: Bool)
    throws(UserBackendError)
  {
    switch value {
    case .serverTimestamp where inArray:
      throw invalid(field, "a server timestamp cannot be inside an array")
    case .timestamp(let date) where !DocumentTimestamp.isRepresentable(date):
      throw invalid(field, "a timestamp must lie in 0001-01-01 … 9999-12-31 UTC")
    case .array(let values):
      guard depth < maximumDepth else { throw tooDeep(field) }
      for element in values {
        try check(element, field: field, depth: depth + 1, inArray: true)
      }
    case .map(let entries):
      guard depth < maximumDepth else { throw tooDeep(field) }
      for (key, element) in entries {
        guard !key.isEmpty else { throw invalid(field, "a map key must not be empty") }
        try check(element, field: field, depth: depth + 1, inArray: inArray)
      }
    default:
      break
    }
  }

  private static func tooDeep(_ field: String) -> UserBackendError {
    invalid(field, "maps and arrays nest more than \(maximumDepth) levels")
  }

  /// `.invalidInput(field: "fields.<name>", reason:)`.
  package static func invalid(_ field: String, _ reason: String) -> UserBackendError {
    UserBackendError(.invalidInput(field: "fields." + field, reason: reason))
  }
}
