import Foundation
import UserBackendKit

/// One scenario, as data: a file `Contracts/<name>.json`.
///
/// ```json
/// {
///   "name": "sign-up-then-current-user",
///   "description": "A new account is signed in and is the current user.",
///   "requires": ["emailPassword"],
///   "variables": {"email": "email"},
///   "steps": [
///     {"label": "new", "op": "signUp",
///      "input": {"email": "{{email}}", "password": "correct-horse-7"},
///      "expect": {"user": {"email": "{{email}}", "providers": ["password"], "isNewUser": true}}},
///     {"op": "currentUser", "expect": {"user": {"sameUserAs": "new"}}}
///   ]
/// }
/// ```
public struct Contract: Sendable, Hashable, Codable, Identifiable {
  /// The contract's name; equals the file name without `.json` and names its cassettes
  /// (`Recordings/<backend>/<name>.har`).
  public var name: String
  /// What the scenario proves, for humans.
  public var description: String
  /// The capabilities a backend must claim; otherwise the contract is skipped. Besides
  /// `Capability` names, ``Contract/controllableClock`` requires an environment clock.
  public var requires: [Capability]
  /// The per-run variables used as `{{name}}` in strings, with the kind of value the
  /// runner proposes for each.
  public var variables: [String: VariableKind]
  /// The steps, run in order.
  public var steps: [ContractStep]

  /// The pseudo-capability satisfied when `ContractEnvironment.clock` is not `nil`.
  public static let controllableClock: Capability = "controllableClock"

  /// The pseudo-capability of an environment that can send requests of its own to the
  /// backend's server, past the adapter (`rawGetDocument`,
  /// ``ContractEnvironment/rawDocumentRead(userID:bearerToken:)``): the emulator, replay and
  /// live environments add it to their ``ContractEnvironment/capabilities``. The fake has no
  /// server apart from the backend, so it lacks it, and `skips.json` pins that like any
  /// missing capability.
  public static let rawServerRequests: Capability = "rawServerRequests"

  /// ``name``.
  public var id: String { name }

  /// A contract value.
  public init(
    name: String, description: String, requires: [Capability] = [],
    variables: [String: VariableKind] = [:], steps: [ContractStep]
  ) {
    self.name = name
    self.description = description
    self.requires = requires
    self.variables = variables
    self.steps = steps
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, requires, variables, steps
  }

  /// Decodes a contract; `requires` and `variables` may be omitted.
  /// - Throws: `DecodingError` for missing keys or wrong types, a format error for
  ///   unknown keys, operations or values.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(
      decoder, allowed: ["name", "description", "requires", "variables", "steps"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decode(String.self, forKey: .description)
    requires = try container.decodeIfPresent([Capability].self, forKey: .requires) ?? []
    variables =
      try container.decodeIfPresent([String: VariableKind].self, forKey: .variables) ?? [:]
    steps = try container.decode([ContractStep].self, forKey: .steps)
    if steps.isEmpty {
      throw ContractFormatError.invalid(decoder, "steps", "a contract needs at least one step")
    }
  }
}

/// The kind of value the runner proposes for a variable. Proposals are unique per run.
public enum VariableKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// `u-<12 hex>@example.com` (lower case).
  case email
  /// `user-<12 hex>`.
  case username
  /// `+1555` followed by 7 digits (E.164).
  case phoneNumber
  /// `v-<16 hex>`: subjects, nonces and other opaque values.
  case identifier
}

/// One step: an operation with its input, the expected outcome, and an optional label
/// later steps use to refer back (`"sameUserAs": "label"`).
///
/// JSON: `{"label": "a", "op": "signUp", "input": {...}, "expect": {...}}`; only `op`
/// is required. Without `expect` the operation must succeed. `"device": "label"` runs the
/// step on the second device of an earlier `addDevice` step instead of the main one.
public struct ContractStep: Sendable, Hashable, Codable {
  /// The name later steps use to refer to this step's user, token or verification.
  public var label: String?
  /// What to do.
  public var operation: ContractOperation
  /// What must come out, or `nil` for "succeeds".
  public var expectation: Expectation?
  /// The label of the `addDevice` step whose device runs this step, or `nil` for the main
  /// backend.
  public var device: String?

  /// A step value.
  public init(
    label: String? = nil, _ operation: ContractOperation, expect: Expectation? = nil,
    device: String? = nil
  ) {
    self.label = label
    self.operation = operation
    self.expectation = expect
    self.device = device
  }

  private enum CodingKeys: String, CodingKey { case label, expect, device }

  /// Decodes a step.
  /// - Throws: `DecodingError.keyNotFound` when `op` (or a required `input`) is missing,
  ///   a format error for an unknown operation, key or value.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(
      decoder, allowed: ["label", "op", "input", "expect", "device"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    label = try container.decodeIfPresent(String.self, forKey: .label)
    device = try container.decodeIfPresent(String.self, forKey: .device)
    operation = try ContractOperation.decodeOperation(from: decoder)
    expectation = try container.decodeIfPresent(Expectation.self, forKey: .expect)
  }

  /// Encodes a step in the same form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(label, forKey: .label)
    try operation.encodeOperation(to: encoder)
    try container.encodeIfPresent(expectation, forKey: .expect)
    try container.encodeIfPresent(device, forKey: .device)
  }
}
