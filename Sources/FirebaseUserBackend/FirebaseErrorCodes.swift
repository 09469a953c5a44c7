import Foundation
import UserBackendKit

/// How one Firebase error code maps to a portable ``UserBackendError/Code``
/// (docs/wire/firebase-auth.md §2, §3, §4 and §5.2).
enum FirebaseErrorRule: Sendable, Hashable {
  case accountAlreadyExists
  case invalidCredentials
  case weakPassword
  case invalidEmail
  case invalidInput(field: String, reason: String)
  case userDisabled
  /// Codes that end the session (cleared by the adapter).
  case sessionExpired
  case rateLimited
  /// The operation's capability is switched off on the project.
  case unsupported
  case misconfiguredAPIKey(reason: String)
  case server

  /// The rule for `code`, or `.server` for codes this version does not know.
  static func rule(for code: String) -> FirebaseErrorRule {
    table[code] ?? .server
  }

  /// Every code with a rule. Codes not listed map to `.server`, keeping the raw code.
  static let table: [String: FirebaseErrorRule] = {
    var table: [String: FirebaseErrorRule] = [:]
    func add(_ rule: FirebaseErrorRule, _ codes: String...) {
      for code in codes { table[code] = rule }
    }
    add(
      .accountAlreadyExists, "EMAIL_EXISTS", "FEDERATED_USER_ID_ALREADY_LINKED",
      "PHONE_NUMBER_EXISTS", "NEED_CONFIRMATION", "CREDENTIAL_ALREADY_IN_USE")
    add(
      .invalidCredentials, "EMAIL_NOT_FOUND", "INVALID_PASSWORD", "INVALID_LOGIN_CREDENTIALS",
      "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN", "MISSING_OR_INVALID_NONCE",
      "INVALID_CUSTOM_TOKEN", "CREDENTIAL_MISMATCH", "INVALID_CODE", "INVALID_TEMPORARY_PROOF")
    add(.weakPassword, "WEAK_PASSWORD", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    add(.invalidEmail, "INVALID_EMAIL", "INVALID_IDENTIFIER")
    add(.invalidInput(field: "email", reason: "missing"), "MISSING_EMAIL")
    add(.invalidInput(field: "password", reason: "missing"), "MISSING_PASSWORD")
    add(
      .invalidInput(field: "phoneNumber", reason: "not a valid E.164 phone number"),
      "INVALID_PHONE_NUMBER", "MISSING_PHONE_NUMBER")
    add(
      .invalidInput(field: "verificationID", reason: "unknown or invalid verification ID"),
      "INVALID_SESSION_INFO", "MISSING_SESSION_INFO")
    add(
      .invalidInput(field: "verificationID", reason: "the code expired; request a new one"),
      "SESSION_EXPIRED")
    add(.invalidInput(field: "code", reason: "missing"), "MISSING_CODE")
    add(
      .invalidInput(field: "oobCode", reason: "invalid or expired action code"),
      "EXPIRED_OOB_CODE", "INVALID_OOB_CODE", "MISSING_OOB_CODE")
    add(.userDisabled, "USER_DISABLED")
    add(
      .sessionExpired, "TOKEN_EXPIRED", "INVALID_ID_TOKEN", "USER_NOT_FOUND",
      "INVALID_REFRESH_TOKEN")
    add(
      .rateLimited, "TOO_MANY_ATTEMPTS_TRY_LATER", "RESET_PASSWORD_EXCEED_LIMIT", "QUOTA_EXCEEDED")
    add(
      .unsupported, "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED", "ADMIN_ONLY_OPERATION",
      "UNSUPPORTED_FIRST_FACTOR", "UNSUPPORTED_TENANT_OPERATION")
    add(
      .misconfiguredAPIKey(reason: "the API key belongs to a different project than the session"),
      "PROJECT_NUMBER_MISMATCH")
    add(
      .server,
      // Secure Token request-shape errors (a client bug, not a user error).
      "INVALID_GRANT_TYPE", "MISSING_GRANT_TYPE", "MISSING_REFRESH_TOKEN",
      // Re-authentication, action-code links, MFA and e-mail change flows.
      "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "MISSING_REQ_TYPE", "INVALID_CONTINUE_URI",
      "MISSING_CONTINUE_URI", "UNAUTHORIZED_DOMAIN", "EMAIL_CHANGE_NEEDS_VERIFICATION",
      "UNVERIFIED_EMAIL", "SECOND_FACTOR_EXISTS", "SECOND_FACTOR_LIMIT_EXCEEDED",
      "MFA_ENROLLMENT_NOT_FOUND", "INVALID_MFA_PENDING_CREDENTIAL",
      "MISSING_MFA_PENDING_CREDENTIAL", "MISSING_MFA_ENROLLMENT_ID",
      // Multi-tenancy and blocking functions.
      "TENANT_ID_MISMATCH", "INVALID_TENANT_ID", "BLOCKING_FUNCTION_ERROR_RESPONSE",
      // reCAPTCHA and app verification.
      "MISSING_RECAPTCHA_TOKEN", "INVALID_RECAPTCHA_TOKEN", "INVALID_RECAPTCHA_ACTION",
      "MISSING_RECAPTCHA_VERSION", "INVALID_RECAPTCHA_VERSION", "CAPTCHA_CHECK_FAILED",
      "INVALID_APP_CREDENTIAL", "MISSING_APP_CREDENTIAL", "MISSING_CLIENT_IDENTIFIER",
      "MISSING_IOS_APP_TOKEN")
    return table
  }()

  /// Codes after which the stored session is cleared when they answer a call that used
  /// the session's ID token or refresh token (`docs/wire/firebase-auth.md` §5.4).
  static let sessionRevokingCodes: Set<String> = [
    "USER_NOT_FOUND", "USER_DISABLED", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN",
    "INVALID_ID_TOKEN",
  ]
}
