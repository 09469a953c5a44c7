import AccountDatabase
import BackendHTTP
import Foundation

/// An NCMB error answer: `{"code":"E409001","error":"userName is duplication."}` with
/// the HTTP status taken from the code's three digits after `E`
/// (`docs/wire/ncmb.md` §4).
struct NCMBError: Error {
  /// The code, e.g. `E401002`.
  var code: String
  /// The message, e.g. `Authentication error with ID/PASS incorrect.`.
  var message: String

  init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The HTTP status: the three digits after `E` (500 if unreadable).
  var status: Int { Int(code.dropFirst().prefix(3)) ?? 500 }

  /// The JSON error answer.
  var response: HTTPResponse {
    WireResponse.jsonKeepingNumberKinds(status, ["code": code, "error": message])
  }

  static let invalidJSON = NCMBError("E400001", "JSON is invalid format.")
  /// A field of the wrong JSON type (`{"password":123456}`): `E400002 password is invalid.`
  static func wrongType(_ field: String) -> NCMBError {
    NCMBError("E400002", "\(field) is invalid.")
  }
  /// A value longer than `maximum` characters: `E400009 {field} size must be between 1 and
  /// {maximum}.`
  static func size(_ field: String, maximum: Int) -> NCMBError {
    NCMBError("E400009", "\(field) size must be between 1 and \(maximum).")
  }
  static func empty(_ field: String) -> NCMBError { NCMBError("E400003", "\(field) is empty.") }
  static func invalidFormat(_ field: String) -> NCMBError {
    NCMBError("E400004", "\(field) is invalid format.")
  }
  /// Missing or unusable authentication headers, or an invalid / revoked session token.
  static let headerIncorrect = NCMBError("E401001", "Authentication error by header incorrect.")
  static let wrongCredentials = NCMBError("E401002", "Authentication error with ID/PASS incorrect.")
  static func oauthFailed(_ provider: String) -> NCMBError {
    NCMBError("E401003", "OAuth \(provider) authentication error.")
  }
  static let noAccess = NCMBError("E403001", "No access with ACL.")
  static let badSignature = NCMBError("E403002", "Unauthorized operations for signature.")
  static let prohibited = NCMBError("E403003", "Operation that are prohibited.")
  static func mustNotBeEntered(_ field: String) -> NCMBError {
    NCMBError("E403005", "\(field) must not be entered.")
  }
  static let noData = NCMBError("E404001", "No data available.")
  static let noService = NCMBError("E404002", "None service.")
  static let noApplication = NCMBError("E404005", "No such application.")
  static let methodNotAllowed = NCMBError("E405001", "Method not allowed.")
  static func duplicate(_ field: String) -> NCMBError {
    NCMBError("E409001", "\(field) is duplication.")
  }
  static let systemError = NCMBError("E500001", "System error.")

  /// A store failure as an NCMB answer; SQLite's text never reaches the client.
  static func from(_ error: any Error) -> NCMBError {
    switch error {
    case let error as NCMBError: error
    case UserStoreError.duplicate(field: "username"): .duplicate("userName")
    case UserStoreError.duplicate(field: "email"): .duplicate("mailAddress")
    case UserStoreError.duplicate: .duplicate("authData")
    case UserStoreError.userNotFound: .noData
    default: .systemError
    }
  }
}

/// Runs a store call, turning its errors into ``NCMBError``.
func ncmbStore<T>(_ body: () throws -> T) throws(NCMBError) -> T {
  do {
    return try body()
  } catch {
    throw NCMBError.from(error)
  }
}
