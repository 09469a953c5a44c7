import Foundation

/// The result of one contract on one harness.
public struct ContractResult: Sendable, Hashable, Codable {
  /// The contract's name.
  public var contract: String
  /// The harness's name.
  public var harness: String
  /// Passed, failed or skipped.
  public var outcome: ContractOutcome
  /// `true` for a skip caused by the environment rather than the backend (no controllable
  /// clock, no view of SMS or out-of-band messages: a live run). ``SkipMatrix`` pins what
  /// each backend lacks, so it does not judge these: a live run against a correct server
  /// can succeed. `false` for every other result.
  public var skippedByEnvironment: Bool

  /// A result value.
  public init(
    contract: String, harness: String, outcome: ContractOutcome, skippedByEnvironment: Bool = false
  ) {
    self.contract = contract
    self.harness = harness
    self.outcome = outcome
    self.skippedByEnvironment = skippedByEnvironment
  }
}

/// How a contract ended on a harness.
public enum ContractOutcome: Sendable, Hashable, Codable {
  /// Every step met its expectation.
  case passed
  /// A step (or the environment) did not.
  case failed(ContractFailure)
  /// Not run: a capability is missing or the harness declined.
  case skipped(reason: String)

  /// `"passed"`, `"failed"` or `"skipped"`.
  public var status: String {
    switch self {
    case .passed: "passed"
    case .failed: "failed"
    case .skipped: "skipped"
    }
  }
}

/// Where and how a contract failed. Never contains a token or a password.
public struct ContractFailure: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The 1-based step number, or `nil` for a failure outside the steps (environment
  /// setup, `finish`).
  public var step: Int?
  /// The step's label, when it has one.
  public var label: String?
  /// The step's operation name.
  public var operation: String?
  /// What the contract expected, in words.
  public var expected: String
  /// What happened, in words.
  public var actual: String

  /// A failure value.
  public init(step: Int?, label: String?, operation: String?, expected: String, actual: String) {
    self.step = step
    self.label = label
    self.operation = operation
    self.expected = expected
    self.actual = actual
  }

  /// Where: `step 3 "dup" (signUp)`, or `setup`.
  public var location: String {
    guard let step else { return operation ?? "setup" }
    return "step \(step)" + (label.map { " \"\($0)\"" } ?? "")
      + (operation.map { " (\($0))" } ?? "")
  }

  /// `step 3 "dup" (signUp): expected ...; got ...`.
  public var description: String { "\(location): expected \(expected); got \(actual)" }
}
