import Foundation
import UserBackendKit

extension SecretRedaction {
  /// `error` with every secret in `secrets` replaced by ``placeholder`` in every text it
  /// carries that an answer could have supplied: the message, the backend code, the texts of
  /// `.server`, `.network`, `.malformedResponse`, `.invalidInput` and `.misconfigured`, and
  /// the password rules of a `.weakPassword` error (``UserBackendKit/PasswordRequirements``
  /// keeps rules it cannot classify word for word, and programs show them to people).
  ///
  /// Redacting here, where the secret enters, keeps it out of every program that prints
  /// the error, not only out of `baas`. Secrets shorter than 4 characters are left alone
  /// (``redact(_:secrets:)``).
  public static func redact(_ error: UserBackendError, secrets: [String]) -> UserBackendError {
    let secrets = secrets.filter { $0.count >= 4 }
    guard !secrets.isEmpty else { return error }
    func clean(_ text: String) -> String { redact(text, secrets: secrets) }
    var result = error
    result.message = clean(error.message)
    switch error.code {
    case .server(let status, let code, let message):
      result.code = .server(status: status, code: code.map(clean), message: message.map(clean))
    case .network(let reason): result.code = .network(reason: clean(reason))
    case .malformedResponse(let reason): result.code = .malformedResponse(reason: clean(reason))
    case .invalidInput(let field, let reason):
      result.code = .invalidInput(field: field, reason: clean(reason))
    case .misconfigured(let setting, let reason):
      result.code = .misconfigured(setting: setting, reason: clean(reason))
    default: break
    }
    if let code = error.backendCode {
      result.backendCode = BackendErrorCode(rawValue: clean(code.rawValue))
    }
    if var requirements = error.passwordRequirements {
      requirements.unrecognized = requirements.unrecognized.map(clean)
      result.passwordRequirements = requirements
    }
    return result
  }
}
