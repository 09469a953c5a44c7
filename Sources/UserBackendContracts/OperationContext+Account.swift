import Foundation
import UserBackendKit

/// The account-management operations (issue 20).
extension OperationContext {
  /// Runs an account-management operation.
  /// - Throws: the backend's error; ``ContractSkip`` when the environment cannot see
  ///   out-of-band codes.
  func performAccountOperation(_ operation: ContractOperation, on backend: any UserBackend)
    async throws -> StepValue
  {
    switch operation {
    case .reload: return .user(try await backend.reload())
    case .updateProfile(let input):
      return .user(
        try await backend.updateProfile(displayName: input.displayName, photoURL: input.photoURL))
    case .updatePassword(let password):
      try await backend.updatePassword(password)
      return .none
    case .updateEmail(let email): return .user(try await backend.updateEmail(email))
    case .sendEmailVerification:
      try await backend.sendEmailVerification()
      return .none
    case .applyEmailVerification(let input):
      let code = try await outOfBandCode(
        email: input.email, kind: .emailVerification, wrong: input.wrongCode)
      try await backend.applyEmailVerification(code: code)
      return .none
    case .confirmPasswordReset(let input):
      let code = try await outOfBandCode(
        email: input.email, kind: .passwordReset, wrong: input.wrongCode)
      try await backend.confirmPasswordReset(code: code, newPassword: input.newPassword)
      return .none
    case .reauthenticate(let input):
      return .session(try await backend.reauthenticate(credential(input)))
    case .linkPassword(let input):
      return .session(try await backend.linkPassword(credential(input)))
    default:
      throw ContractExecution.StepFailure(
        expected: "an account operation", actual: operation.name.rawValue)
    }
  }

  /// The environment's code for `email` (or, `wrong`, one that differs from it).
  private func outOfBandCode(email: String, kind: OutOfBandCodeKind, wrong: Bool)
    async throws -> String
  {
    let code: String?
    do {
      code = try await environment.outOfBandCode(email: email, kind: kind)
    } catch {
      throw ContractExecution.StepFailure(
        expected: "the environment to read the \(kind.rawValue) code for \(email)",
        actual: describeError(error))
    }
    guard let code else {
      throw ContractSkip(
        "the environment cannot read out-of-band (\(kind.rawValue)) codes", byEnvironment: true)
    }
    secrets.insert(code)
    return wrong ? Self.wrongOutOfBandCode : code
  }

  /// The code a `wrongCode` step sends: one no server issues. It is alias-shaped, so
  /// cassette redaction keeps it as it is and a replay sends the very request that was
  /// recorded (a fresh value would get the next alias number, which differs between the
  /// recording, whose counter also saw the listing's codes, and the replay, whose does not).
  static let wrongOutOfBandCode = "<WRONG_OOB_CODE>"
}

/// Secrets a run's operations met (out-of-band codes), shared with concurrent tasks and
/// scrubbed from every failure text.
final class SecretSink: Sendable {
  private let values = LockedValue<Set<String>>([])
  /// Remembers a secret.
  func insert(_ value: String) { values.withLock { _ = $0.insert(value) } }
  /// Every secret so far.
  var all: Set<String> { values.withLock { $0 } }
}
