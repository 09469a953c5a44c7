import Foundation
import UserBackendKit

/// Matching documents (``DocumentExpectation``).
extension ExpectationMatcher {
  func matchDocument(_ expected: DocumentExpectation, _ value: StepValue) -> Mismatch? {
    let wanted = describeExpected(expected)
    let document: UserDocument?
    var created: Bool?
    switch value {
    case .document(let read): document = read
    case .creation(let creation):
      document = creation.document
      created = creation.created
    default: return Mismatch(expected: wanted, actual: value.summary)
    }
    if expected.isNil {
      return document == nil ? nil : Mismatch(expected: wanted, actual: value.summary)
    }
    guard let document else { return Mismatch(expected: wanted, actual: value.summary) }
    var problems: [String] = []
    if let expected = expected.created, expected != created {
      problems.append("created \(expected) but got " + (created.map { "\($0)" } ?? "unknown"))
    }
    if let label = expected.sameUserAs {
      if let owner = records[label]?.user?.id {
        if owner != document.userID {
          problems.append(
            "the document of step \"\(label)\"'s user (id \"\(owner)\") but got userID "
              + "\"\(document.userID)\"")
        }
      } else {
        problems.append("step \"\(label)\" produced no user to compare with")
      }
    }
    if let fields = expected.fields { problems += fieldDifferences(fields, document.fields) }
    return problems.isEmpty
      ? nil
      : Mismatch(
        expected: wanted, actual: value.summary + " — differs: " + problems.joined(separator: "; "))
  }

  /// The differences between the expected fields and the document's, names sorted.
  private func fieldDifferences(
    _ expected: [String: FieldExpectation], _ actual: [String: DocumentValue]
  ) -> [String] {
    var problems: [String] = []
    for name in expected.keys.sorted() {
      guard let want = expected[name] else { continue }
      guard let got = actual[name] else {
        problems.append("field \"\(name)\" \(want.summary) but it is missing")
        continue
      }
      let matches: Bool
      switch want {
      case .value(let value): matches = ContractValue.same(value, got)
      case .ofType(let kind): matches = ContractValue.kind(of: got) == kind
      case .userIDOf(let label):
        guard let id = records[label]?.user?.id else {
          problems.append("step \"\(label)\" produced no user to compare field \"\(name)\" with")
          continue
        }
        matches = got == .string(id)
      }
      if !matches {
        problems.append(
          "field \"\(name)\" \(want.summary) but got \(ContractValue.describe(got))")
      }
    }
    for name in actual.keys.sorted() where expected[name] == nil {
      problems.append(
        "no field \"\(name)\" but got \(ContractValue.describe(actual[name] ?? .null))")
    }
    return problems
  }

  /// A document expectation in words.
  func describeExpected(_ expected: DocumentExpectation) -> String {
    if expected.isNil { return "no document (nil)" }
    var parts: [String] = []
    if let label = expected.sameUserAs { parts.append("of the user of step \"\(label)\"") }
    if let fields = expected.fields {
      parts.append(
        "fields {"
          + fields.keys.sorted().map { "\"\($0)\": " + (fields[$0]?.summary ?? "") }
          .joined(separator: ", ") + "}")
    }
    if let created = expected.created { parts.append("created: \(created)") }
    return "document(" + (parts.isEmpty ? "any" : parts.joined(separator: ", ")) + ")"
  }
}
