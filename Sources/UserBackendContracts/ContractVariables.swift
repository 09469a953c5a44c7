import Foundation
import UserBackendKit

/// `{{name}}` substitution in contract strings, and fresh values for a run.
///
/// A reference is `{{name}}` or `{{name|upper}}` / `{{name|lower}}` (the value in upper
/// or lower case, for "same email, other letter case" scenarios).
public enum ContractVariables {
  /// Fresh values for every variable of `contract`, unique per call.
  public static func propose(for contract: Contract) -> [String: String] {
    var generator = SystemRandomNumberGenerator()
    return propose(for: contract, using: &generator)
  }

  /// Values for every variable of `contract` drawn from `generator` (seed it for
  /// reproducible runs).
  public static func propose(
    for contract: Contract, using generator: inout some RandomNumberGenerator
  ) -> [String: String] {
    var values: [String: String] = [:]
    for name in contract.variables.keys.sorted() {
      guard let kind = contract.variables[name] else { continue }
      func hex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &generator) ?? "0" })
      }
      switch kind {
      case .email: values[name] = "u-\(hex(12))@example.com"
      case .username: values[name] = "user-\(hex(12))"
      case .phoneNumber:
        values[name] =
          "+1555"
          + String((0..<7).map { _ in "0123456789".randomElement(using: &generator) ?? "0" })
      case .identifier: values[name] = "v-\(hex(16))"
      }
    }
    return values
  }

  /// Errors substituting variables.
  public enum SubstitutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `{{name}}` has no value.
    case undefined(String)
    /// `{{name|filter}}` uses a filter other than `upper` or `lower`.
    case unknownFilter(String)
    /// `{{` without a closing `}}`.
    case unterminated

    /// A sentence naming the variable.
    public var description: String {
      switch self {
      case .undefined(let name): "variable {{\(name)}} is not declared"
      case .unknownFilter(let filter): "unknown filter |\(filter) (use upper or lower)"
      case .unterminated: "{{ without a closing }}"
      }
    }
  }

  /// `text` with every reference replaced by its value.
  /// - Throws: ``SubstitutionError``.
  public static func substitute(_ text: String, _ values: [String: String]) throws -> String {
    var output = ""
    var rest = text[...]
    while let open = rest.range(of: "{{") {
      output += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        throw SubstitutionError.unterminated
      }
      let reference = rest[open.upperBound..<close.lowerBound]
      let parts = reference.split(separator: "|", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let name = parts.first ?? ""
      guard let value = values[name] else { throw SubstitutionError.undefined(name) }
      switch parts.count > 1 ? parts[1] : "" {
      case "": output += value
      case "upper": output += value.uppercased()
      case "lower": output += value.lowercased()
      case let filter: throw SubstitutionError.unknownFilter(filter)
      }
      rest = rest[close.upperBound...]
    }
    return output + rest
  }

  /// The variable names referenced in `text` (without filters).
  static func references(in text: String) -> [String] {
    var names: [String] = []
    var rest = text[...]
    while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
      let reference = rest[open.upperBound..<close.lowerBound]
      let name = reference.split(separator: "|", maxSplits: 1).first.map(String.init) ?? ""
      names.append(name.trimmingCharacters(in: .whitespaces))
      rest = rest[close.upperBound...]
    }
    return names
  }
}
