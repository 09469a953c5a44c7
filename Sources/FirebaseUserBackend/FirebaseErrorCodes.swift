import Foundation
import UserBackendKit

/// How one Firebase error code maps to a portable ``UserBackendError/Code``: the codes the
/// Identity Toolkit and Secure Token APIs document, and those the official SDKs map.
enum FirebaseErrorRule: Sendable, Hashable {
  case accountAlreadyExists
  case invalidCredentials
  /// An SMS code that is wrong, expired, or for an unknown verification:
  /// `.invalidCredentials` with ``UserBackendError/smsCodeRejectedMessage``.
  case smsCodeRejected
  case weakPassword
  case invalidEmail
  case invalidInput(field: String, reason: String)
  /// A value the server refused: `.invalidInput` naming `field` (for `nil`, the field the
  /// detail starts with, as in `INVALID_ARGUMENT : photoUrl must be …`, named as the
  /// library names it: ``argumentField(_:)``), the detail as the reason.
  case invalidArgument(field: String?)
  /// The app-verification proof of a phone verification is missing or was rejected:
  /// `.invalidInput(field: "appVerification", reason:)`, the reason saying what is needed.
  case appVerification(reason: String)
  case userDisabled
  /// A sensitive change needs a recent sign-in; the session is kept.
  case requiresRecentLogin
  /// Re-authentication with another account's credential; the session is kept.
  case userMismatch
  /// Codes that end the session (cleared by the adapter).
  case sessionExpired
  case rateLimited
  /// The operation's capability is switched off on the project.
  case unsupported
  /// A problem with the project the API key selects, or with the key: `.misconfigured`.
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
      "INVALID_CUSTOM_TOKEN", "CREDENTIAL_MISMATCH", "INVALID_TEMPORARY_PROOF")
    add(.smsCodeRejected, "INVALID_CODE", "SESSION_EXPIRED", "INVALID_SESSION_INFO")
    add(.weakPassword, "WEAK_PASSWORD", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    add(.invalidEmail, "INVALID_EMAIL", "INVALID_IDENTIFIER")
    add(.invalidInput(field: "email", reason: "missing"), "MISSING_EMAIL")
    add(.invalidInput(field: "password", reason: "missing"), "MISSING_PASSWORD")
    add(
      .invalidInput(field: "phoneNumber", reason: "not a valid E.164 phone number"),
      "INVALID_PHONE_NUMBER", "MISSING_PHONE_NUMBER")
    add(.invalidInput(field: "verificationID", reason: "missing"), "MISSING_SESSION_INFO")
    add(.invalidInput(field: "code", reason: "missing"), "MISSING_CODE")
    add(
      .invalidInput(field: "code", reason: "unknown, already used or expired action code"),
      "EXPIRED_OOB_CODE", "INVALID_OOB_CODE")
    add(.invalidInput(field: "code", reason: "missing"), "MISSING_OOB_CODE")
    add(.invalidArgument(field: "displayName"), "INVALID_DISPLAY_NAME")
    add(.invalidArgument(field: "photoURL"), "INVALID_PHOTO_URL")
    add(.invalidArgument(field: "provider"), "INVALID_PROVIDER_ID")
    add(.invalidArgument(field: nil), "INVALID_ARGUMENT")
    add(.userDisabled, "USER_DISABLED")
    add(.requiresRecentLogin, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    add(.userMismatch, "USER_MISMATCH")
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
      .misconfiguredAPIKey(
        reason: "the Firebase project of this API key has not set up Authentication; open "
          + "Authentication in the Firebase console and click Get started (or the key belongs "
          + "to another project)"),
      "CONFIGURATION_NOT_FOUND")
    add(
      .misconfiguredAPIKey(
        reason: "the project of this API key needs a billing account for this operation "
          + "(sending SMS codes); link one in the Firebase console"),
      "BILLING_NOT_ENABLED")
    let proofKinds =
      "an iOS receipt and secret, a reCAPTCHA token or a Play Integrity token"
    add(
      .appVerification(
        reason: "the project requires an app-verification proof (\(proofKinds)) and none "
          + "was sent"), "MISSING_APP_CREDENTIAL")
    add(
      .appVerification(
        reason: "the app-verification proof was rejected: the iOS receipt and secret (or the "
          + "Play Integrity token) are wrong, expired or already used; obtain a new one"),
      "INVALID_APP_CREDENTIAL")
    add(
      .appVerification(
        reason: "the reCAPTCHA token was rejected (wrong, expired, already used, or for "
          + "another site key); solve the reCAPTCHA again"), "CAPTCHA_CHECK_FAILED",
      "INVALID_RECAPTCHA_TOKEN")
    add(
      .appVerification(reason: "the project requires a reCAPTCHA token and none was sent"),
      "MISSING_RECAPTCHA_TOKEN")
    add(
      .appVerification(
        reason: "the project requires a proof that identifies the app (\(proofKinds)) and "
          + "none was sent"), "MISSING_CLIENT_IDENTIFIER")
    add(
      .appVerification(
        reason: "the project requires an iOS receipt and secret and none was sent"),
      "MISSING_IOS_APP_TOKEN")
    add(
      .server,
      // Secure Token request-shape errors (a client bug, not a user error).
      "INVALID_GRANT_TYPE", "MISSING_GRANT_TYPE", "MISSING_REFRESH_TOKEN",
      // Identity Toolkit request-shape errors: a field the adapters never send (localId
      // to signUp), an admin-only field, an unknown requestType or link mode.
      "UNEXPECTED_PARAMETER", "MISSING_LOCAL_ID", "INVALID_REQ_TYPE", "INTERNAL_ERROR",
      // Action-code links, MFA and e-mail change flows.
      "MISSING_REQ_TYPE", "INVALID_CONTINUE_URI",
      "MISSING_CONTINUE_URI", "UNAUTHORIZED_DOMAIN", "EMAIL_CHANGE_NEEDS_VERIFICATION",
      "UNVERIFIED_EMAIL", "SECOND_FACTOR_EXISTS", "SECOND_FACTOR_LIMIT_EXCEEDED",
      "MFA_ENROLLMENT_NOT_FOUND", "INVALID_MFA_PENDING_CREDENTIAL",
      "MISSING_MFA_PENDING_CREDENTIAL", "MISSING_MFA_ENROLLMENT_ID",
      // Multi-tenancy and blocking functions.
      "TENANT_ID_MISMATCH", "INVALID_TENANT_ID", "BLOCKING_FUNCTION_ERROR_RESPONSE",
      // reCAPTCHA Enterprise request-shape errors (a client bug, not a missing proof).
      "INVALID_RECAPTCHA_ACTION", "MISSING_RECAPTCHA_VERSION", "INVALID_RECAPTCHA_VERSION")
    return table
  }()

  /// The field an `INVALID_ARGUMENT` detail is about, as the library names it: the first
  /// word when it is an identifier followed by more text (`photoUrl must be …` →
  /// `photoURL`, `localId …` → `userID`), else `"request"`.
  static func argumentField(_ detail: String?) -> String {
    let words = (detail ?? "").split(separator: " ", maxSplits: 1)
    guard words.count == 2, let first = words.first,
      first.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    else { return "request" }
    switch first {
    case "photoUrl": return "photoURL"
    case "localId": return "userID"
    case "providerId": return "provider"
    case "oobCode": return "code"
    default: return String(first)
    }
  }

  /// Codes after which the stored session is cleared when they answer a call that used
  /// the session's ID token or refresh token (the official SDKs sign out on these).
  static let sessionRevokingCodes: Set<String> = [
    "USER_NOT_FOUND", "USER_DISABLED", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN",
    "INVALID_ID_TOKEN",
  ]
}
