import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

/// A Firebase Auth error answer (`docs/wire/firebase-auth.md` §5.1).
///
/// Identity Toolkit errors render as
/// `{"error":{"code":400,"message":"CODE[ : detail]","errors":[{"message":…,"domain":"global","reason":"invalid"}]}}`;
/// gateway-style errors (missing API key, not found, not implemented) and Secure Token
/// errors carry a `status` text instead of `errors[]` (§2, §5.1, §7.3).
struct FirebaseError: Error {
  /// The HTTP status (400 for every user-level code).
  var status = 400
  /// The code before `" : "`, e.g. `WEAK_PASSWORD`.
  var code: String
  /// The text after `" : "`, or `nil`.
  var detail: String?
  /// The gateway `status` text (`PERMISSION_DENIED`, `INVALID_ARGUMENT`), or `nil` for the
  /// Identity Toolkit shape with `errors[]`.
  var statusText: String?

  init(_ code: String, _ detail: String? = nil) {
    self.code = code
    self.detail = detail
  }

  /// `code`, or `code : detail`.
  var message: String { detail.map { "\(code) : \($0)" } ?? code }

  /// The JSON error envelope.
  var response: HTTPResponse {
    var error: [String: Any] = ["code": status, "message": message]
    if let statusText {
      error["status"] = statusText
    } else {
      error["errors"] = [["message": message, "domain": "global", "reason": "invalid"]]
    }
    return WireResponse.json(status, ["error": error])
  }

  /// The same error in the Secure Token shape: `status: "INVALID_ARGUMENT"`, no
  /// `errors[]` (`docs/wire/firebase-auth.md` §2, "Error envelope").
  var secureTokenShaped: FirebaseError {
    var copy = self
    copy.statusText = copy.statusText ?? "INVALID_ARGUMENT"
    return copy
  }

  static let weakPassword = FirebaseError(
    "WEAK_PASSWORD", "Password should be at least 6 characters")
  static let emailExists = FirebaseError("EMAIL_EXISTS")
  static let invalidEmail = FirebaseError("INVALID_EMAIL")
  static let missingEmail = FirebaseError("MISSING_EMAIL")
  static let missingPassword = FirebaseError("MISSING_PASSWORD")
  static let invalidLoginCredentials = FirebaseError("INVALID_LOGIN_CREDENTIALS")
  static let userDisabled = FirebaseError("USER_DISABLED")
  static let userNotFound = FirebaseError("USER_NOT_FOUND")
  static let invalidIDToken = FirebaseError("INVALID_ID_TOKEN")
  static let tokenExpired = FirebaseError("TOKEN_EXPIRED")

  /// 403 for a request without `?key=` or `x-goog-api-key` (the emulator's text, §7.3).
  static var missingAPIKey: FirebaseError {
    var error = FirebaseError("The request is missing a valid API key.")
    error.status = 403
    error.statusText = "PERMISSION_DENIED"
    return error
  }

  /// 404 for a path no route serves.
  static var notFound: FirebaseError {
    var error = FirebaseError("Not Found")
    error.status = 404
    error.statusText = "NOT_FOUND"
    return error
  }

  /// 501 for a known endpoint this emulator does not implement (§7.3, "Unimplemented").
  static func notImplemented(_ operation: String) -> FirebaseError {
    var error = FirebaseError("\(operation) is not implemented in this emulator.")
    error.status = 501
    error.statusText = "NOT_IMPLEMENTED"
    return error
  }

  /// 400 for a body that is not a JSON object.
  static var invalidJSON: FirebaseError {
    var error = FirebaseError("Invalid JSON payload received.")
    error.statusText = "INVALID_ARGUMENT"
    return error
  }

  /// 400 for a field of the wrong JSON type, like production's
  /// `Invalid JSON payload received. …` (`docs/wire/firebase-auth.md` §5.1,
  /// gateway-level answers). The message names the field and its expected type
  /// (`TYPE_STRING`, `TYPE_BOOL`), never the value (it may be a password).
  static func wrongType(_ field: String, expected: String = "TYPE_STRING") -> FirebaseError {
    var error = FirebaseError(
      "Invalid JSON payload received. Invalid value at '\(field)' (\(expected)).")
    error.statusText = "INVALID_ARGUMENT"
    return error
  }

  /// 400 for a password longer than ``CredentialValidation/maximumPasswordLength``
  /// characters. No production text for this is documented; the emulator
  /// answers an `INVALID_ARGUMENT` naming the field.
  static var passwordTooLong: FirebaseError {
    var error = FirebaseError(
      "INVALID_ARGUMENT",
      "password must be at most \(CredentialValidation.maximumPasswordLength) characters")
    error.statusText = "INVALID_ARGUMENT"
    return error
  }

  /// A store failure: ``UserStoreError/database(message:)`` becomes a 500 without the
  /// SQLite text; the others map to their Firebase codes.
  static func from(_ error: any Error) -> FirebaseError {
    switch error {
    case let error as FirebaseError: return error
    case UserStoreError.duplicate(field: "email"): return .emailExists
    case UserStoreError.duplicate(field: "phoneNumber"): return FirebaseError("PHONE_NUMBER_EXISTS")
    case UserStoreError.duplicate: return FirebaseError("FEDERATED_USER_ID_ALREADY_LINKED")
    case UserStoreError.userNotFound: return .userNotFound
    case UserStoreError.userDisabled: return .userDisabled
    case UserStoreError.invalidRefreshToken: return FirebaseError("INVALID_REFRESH_TOKEN")
    case UserStoreError.invalidVerificationCode: return FirebaseError("INVALID_CODE")
    case UserStoreError.verificationExpired: return FirebaseError("SESSION_EXPIRED")
    case UserStoreError.unknownVerification: return FirebaseError("INVALID_SESSION_INFO")
    case UserStoreError.invalidOutOfBandCode: return FirebaseError("INVALID_OOB_CODE")
    case UserStoreError.outOfBandCodeExpired: return FirebaseError("EXPIRED_OOB_CODE")
    default:
      var internalError = FirebaseError("INTERNAL_ERROR")
      internalError.status = 500
      internalError.statusText = "INTERNAL"
      return internalError
    }
  }
}

/// Runs a store call, turning its errors into ``FirebaseError``.
func firebaseStore<T>(_ body: () throws -> T) throws(FirebaseError) -> T {
  do {
    return try body()
  } catch {
    throw FirebaseError.from(error)
  }
}
