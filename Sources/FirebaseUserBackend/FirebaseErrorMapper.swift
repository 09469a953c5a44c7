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

/// Turns a Firebase error answer into a ``UserBackendError``: the code is `error.message`
/// before its first colon (trimmed, as the official SDKs read it), the detail after it is
/// the message, and the raw code is kept as `backendCode`. Gateway rejections of the key
/// or the project (``FirebaseGatewayProblem``) become `.misconfigured(setting: "apiKey")`.
enum FirebaseErrorMapper {
  /// The reason given for an API key the server does not accept as a key.
  static let apiKeyRejectedReason = FirebaseGatewayProblem.invalidKeyReason

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
    if let problem = FirebaseGatewayProblem.classify(envelope, status: response.status) {
      return UserBackendError(
        .misconfigured(setting: "apiKey", reason: problem.reason),
        backendCode: BackendErrorCode(rawValue: problem.code))
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
    var message = detail ?? ""
    if context.usesSession && FirebaseErrorRule.sessionRevokingCodes.contains(code) {
      return UserBackendError(.sessionExpired, backendCode: backendCode, message: message)
    }
    let portable: UserBackendError.Code
    var requirements: PasswordRequirements?
    switch FirebaseErrorRule.rule(for: code) {
    case .accountAlreadyExists: portable = .accountAlreadyExists
    case .invalidCredentials: portable = .invalidCredentials
    case .smsCodeRejected:
      portable = .invalidCredentials
      message = UserBackendError.smsCodeRejectedMessage
    case .weakPassword:
      requirements = FirebasePasswordPolicyText.requirements(in: detail)
      portable = .weakPassword(
        minimumLength: requirements?.minimumLength ?? CredentialValidation.minimumPasswordLength)
    case .invalidEmail: portable = .invalidEmail
    case .invalidInput(let field, let reason):
      portable = .invalidInput(field: field, reason: reason)
    case .invalidArgument(let field):
      portable = .invalidInput(
        field: field ?? FirebaseErrorRule.argumentField(detail),
        reason: detail ?? "refused by the server")
    case .appVerification(let reason):
      portable = .invalidInput(field: "appVerification", reason: reason)
      if message.isEmpty { message = "appVerification: \(reason)" }
    case .userDisabled: portable = .userDisabled
    case .requiresRecentLogin: portable = .requiresRecentLogin
    case .userMismatch: portable = .userMismatch
    case .sessionExpired: portable = .sessionExpired
    case .rateLimited: portable = .rateLimited(retryAfter: retryAfter)
    case .unsupported: portable = .unsupported(capability: context.capability)
    case .misconfiguredAPIKey(let reason):
      portable = .misconfigured(setting: "apiKey", reason: reason)
    case .server: portable = .server(status: status, code: code, message: detail)
    }
    return UserBackendError(
      portable, backendCode: backendCode, message: message, passwordRequirements: requirements)
  }
}
