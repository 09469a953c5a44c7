import BackendHTTP
import Foundation
import UserBackendKit

/// What the mapper needs to know about the call that failed.
struct FirebaseErrorContext: Sendable, Hashable {
  /// The endpoint, e.g. `"accounts:signUp"`, used in malformed-response reasons.
  var operation: String
  /// The capability the call belongs to; `OPERATION_NOT_ALLOWED` becomes
  /// `.unsupported(capability:)` with it.
  var capability: Capability
  /// `true` when the call carried the session's ID token or refresh token: then
  /// ``FirebaseErrorRule/sessionRevokingCodes`` (including `USER_DISABLED`) become
  /// `.sessionExpired`.
  var usesSession: Bool = false
}

/// Turns a Firebase error answer into a ``UserBackendError`` (docs/wire/firebase-auth.md
/// §5): the code is `error.message` before `" : "`, the detail after it is the message,
/// and the raw code is kept as `backendCode`.
enum FirebaseErrorMapper {
  /// The reason given for every rejected API key.
  static let apiKeyRejectedReason = "the server rejected the API key (wrong API key?)"

  /// Maps a non-2xx answer.
  static func error(for response: HTTPResponse, context: FirebaseErrorContext)
    -> UserBackendError
  {
    let retryAfter = RetryAfter.parse(response.headerFields["Retry-After"])
    guard let envelope = try? JSONDecoder().decode(FirebaseErrorEnvelope.self, from: response.body)
    else {
      if response.status >= 500 {
        return UserBackendError(.server(status: response.status, code: nil, message: nil))
      }
      if response.status == 429 {
        return UserBackendError(.rateLimited(retryAfter: retryAfter))
      }
      let type = response.headerFields["Content-Type"] ?? "no content type"
      return UserBackendError(
        .malformedResponse(
          reason: "\(context.operation) answered HTTP \(response.status) with a body that is "
            + "not a Firebase error object (\(type), \(response.body.count) bytes)"))
    }
    let body = envelope.error
    let parts = FirebaseErrorMessage(body.message ?? "")
    if isAPIKeyRejection(envelope, status: response.status) {
      let code = envelope.reasons.contains("API_KEY_INVALID") ? "API_KEY_INVALID" : body.status
      return UserBackendError(
        .misconfigured(setting: "apiKey", reason: apiKeyRejectedReason),
        backendCode: code.map(BackendErrorCode.init(rawValue:)))
    }
    if response.status >= 500 {
      return UserBackendError(
        .server(status: response.status, code: parts.code ?? body.status, message: parts.detail),
        backendCode: (parts.code ?? body.status).map(BackendErrorCode.init(rawValue:)))
    }
    guard let code = parts.code else {
      let fallback = body.status ?? "HTTP_\(response.status)"
      if response.status == 429 {
        return UserBackendError(
          .rateLimited(retryAfter: retryAfter), backendCode: BackendErrorCode(rawValue: fallback),
          message: parts.detail ?? "")
      }
      return UserBackendError(
        .server(status: response.status, code: fallback, message: parts.detail),
        backendCode: BackendErrorCode(rawValue: fallback))
    }
    return error(
      code: code, detail: parts.detail, status: response.status, retryAfter: retryAfter,
      context: context)
  }

  /// Maps one code and its detail (also used for `errorMessage` inside a 200 answer).
  static func error(
    code: String, detail: String?, status: Int, retryAfter: TimeInterval? = nil,
    context: FirebaseErrorContext
  ) -> UserBackendError {
    let backendCode = BackendErrorCode(rawValue: code)
    let message = detail ?? ""
    if context.usesSession && FirebaseErrorRule.sessionRevokingCodes.contains(code) {
      return UserBackendError(.sessionExpired, backendCode: backendCode, message: message)
    }
    let portable: UserBackendError.Code
    switch FirebaseErrorRule.rule(for: code) {
    case .accountAlreadyExists: portable = .accountAlreadyExists
    case .invalidCredentials: portable = .invalidCredentials
    case .weakPassword:
      portable = .weakPassword(minimumLength: minimumLength(in: detail))
    case .invalidEmail: portable = .invalidEmail
    case .invalidInput(let field, let reason):
      portable = .invalidInput(field: field, reason: reason)
    case .userDisabled: portable = .userDisabled
    case .sessionExpired: portable = .sessionExpired
    case .rateLimited: portable = .rateLimited(retryAfter: retryAfter)
    case .unsupported: portable = .unsupported(capability: context.capability)
    case .misconfiguredAPIKey(let reason):
      portable = .misconfigured(setting: "apiKey", reason: reason)
    case .server: portable = .server(status: status, code: code, message: detail)
    }
    return UserBackendError(portable, backendCode: backendCode, message: message)
  }

  /// The first number in a `WEAK_PASSWORD` / `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`
  /// detail ("Password should be at least 6 characters"), else Firebase's default 6.
  static func minimumLength(in detail: String?) -> Int {
    guard let detail else { return CredentialValidation.minimumPasswordLength }
    let digits = detail.split(whereSeparator: { !$0.isNumber })
    for run in digits {
      if let value = Int(run), (1...4096).contains(value) { return value }
    }
    return CredentialValidation.minimumPasswordLength
  }

  /// A gateway rejection of the API key: 400 with reason `API_KEY_INVALID`/`keyInvalid…`
  /// or the text "API key not valid"/"API key expired", or 403 `PERMISSION_DENIED`
  /// (`docs/wire/firebase-auth.md` §5.1).
  static func isAPIKeyRejection(_ envelope: FirebaseErrorEnvelope, status: Int) -> Bool {
    let reasons = envelope.reasons
    if reasons.contains("API_KEY_INVALID")
      || reasons.contains(where: { $0.hasPrefix("keyInvalid") })
    {
      return true
    }
    let message = envelope.error.message ?? ""
    if message.hasPrefix("API key not valid") || message.hasPrefix("API key expired") {
      return true
    }
    return status == 403 && envelope.error.status == "PERMISSION_DENIED"
  }
}
