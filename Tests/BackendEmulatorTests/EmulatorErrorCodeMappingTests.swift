import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator
@testable import FirebaseUserBackend
@testable import NCMBUserBackend

/// Every error code the emulator can send (found in its sources, so a new one fails here
/// until it has a row) is mapped by the matching adapter to a typed ``UserBackendError``:
/// the portable case below, `invalidInput` naming the field where the error is about one.
/// `server` is kept only for answers about the request's shape, which the adapters never
/// send (a client bug, not something the caller can act on), and for 5xx answers.
@Suite("Every emulator error code has a typed mapping", .timeLimit(.minutes(1)))
struct EmulatorErrorCodeMappingTests {
  /// The emulator's sources.
  static let emulatorSources: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/BackendEmulator")
    let files =
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
  }()

  /// The first capture group of every match of `pattern` in the emulator's sources.
  static func codes(_ pattern: String) -> Set<String> {
    let regex = try! NSRegularExpression(pattern: pattern)
    let text = emulatorSources
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      regex.matches(in: text, range: range).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
      })
  }

  /// A portable case's name, with the field for `invalidInput`.
  static func shape(_ code: UserBackendError.Code) -> String {
    if case .invalidInput(let field, _) = code { return "invalidInput(\(field))" }
    return code.name
  }

  /// Firebase Auth: code → (a detail the emulator sends with it, the expected shape).
  static let firebase: [String: (detail: String?, expected: String)] = [
    "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": (nil, "requiresRecentLogin"),
    "EMAIL_EXISTS": (nil, "accountAlreadyExists"),
    "EXPIRED_OOB_CODE": (nil, "invalidInput(code)"),
    "FEDERATED_USER_ID_ALREADY_LINKED": (nil, "accountAlreadyExists"),
    "INTERNAL_ERROR": (nil, "server"),
    "INVALID_ARGUMENT": (
      "photoUrl must be an absolute http or https URL", "invalidInput(photoURL)"
    ),
    "INVALID_CODE": (nil, "invalidCredentials"),
    "INVALID_DISPLAY_NAME": (
      "displayName must be at most 256 characters", "invalidInput(displayName)"
    ),
    "INVALID_EMAIL": (nil, "invalidEmail"),
    "INVALID_GRANT_TYPE": (nil, "server"),
    "INVALID_IDP_RESPONSE": ("the ID token has expired", "invalidCredentials"),
    "INVALID_ID_TOKEN": (nil, "sessionExpired"),
    "INVALID_LOGIN_CREDENTIALS": (nil, "invalidCredentials"),
    "INVALID_OOB_CODE": (nil, "invalidInput(code)"),
    "INVALID_PHONE_NUMBER": (nil, "invalidInput(phoneNumber)"),
    "INVALID_PROVIDER_ID": ("providerId is missing", "invalidInput(provider)"),
    "INVALID_REFRESH_TOKEN": (nil, "sessionExpired"),
    "INVALID_REQ_TYPE": ("mode must be resetPassword or verifyEmail", "server"),
    "INVALID_SESSION_INFO": (nil, "invalidCredentials"),
    "MISSING_CODE": (nil, "invalidInput(code)"),
    "MISSING_EMAIL": (nil, "invalidInput(email)"),
    "MISSING_GRANT_TYPE": (nil, "server"),
    "MISSING_LOCAL_ID": (nil, "server"),
    "MISSING_OOB_CODE": (nil, "invalidInput(code)"),
    "MISSING_OR_INVALID_NONCE": (
      "the SHA-256 of the raw nonce does not match", "invalidCredentials"
    ),
    "MISSING_PASSWORD": (nil, "invalidInput(password)"),
    "MISSING_REFRESH_TOKEN": (nil, "server"),
    "MISSING_REQ_TYPE": (nil, "server"),
    "MISSING_SESSION_INFO": (nil, "invalidInput(verificationID)"),
    "OPERATION_NOT_ALLOWED": (nil, "unsupported"),
    "PHONE_NUMBER_EXISTS": (nil, "accountAlreadyExists"),
    "SESSION_EXPIRED": (nil, "invalidCredentials"),
    "TOKEN_EXPIRED": (nil, "sessionExpired"),
    "UNEXPECTED_PARAMETER": ("User ID", "server"),
    "USER_DISABLED": (nil, "userDisabled"),
    "USER_NOT_FOUND": (nil, "sessionExpired"),
    "WEAK_PASSWORD": ("Password should be at least 6 characters", "weakPassword"),
  ]

  /// The `INVALID_ARGUMENT` details the emulator sends, each naming its field.
  static let invalidArguments: [(detail: String, field: String)] = [
    ("photoUrl must be an absolute http or https URL", "photoURL"),
    ("password must be at most 4096 characters", "password"),
    ("limit must be between 1 and 500", "limit"),
    ("validSince must be a non-negative whole number", "validSince"),
  ]

  /// NCMB: code → (a message the emulator sends with it, the expected shape) for a call
  /// without a session token.
  static let ncmb: [String: (message: String, expected: String)] = [
    "E400001": ("JSON is invalid format.", "server"),
    "E400002": ("password is invalid.", "invalidInput(password)"),
    "E400003": ("userName is empty.", "invalidInput(userName)"),
    "E400004": ("userName is invalid format.", "invalidInput(userName)"),
    "E400006": ("mailAddress does not exist.", "invalidInput(mailAddress)"),
    "E400009": ("userName size must be between 1 and 255.", "invalidInput(userName)"),
    "E401001": ("Authentication error by header incorrect.", "server"),
    "E401002": ("Authentication error with ID/PASS incorrect.", "invalidCredentials"),
    "E401003": ("OAuth apple authentication error.", "invalidCredentials"),
    "E403001": ("No access with ACL.", "permissionDenied"),
    "E403002": ("Unauthorized operations for signature.", "misconfigured"),
    "E403003": ("Operation that are prohibited.", "permissionDenied"),
    "E403005": ("sessionToken must not be entered.", "invalidInput(sessionToken)"),
    "E404001": ("No data available.", "server"),
    "E404002": ("None service.", "server"),
    "E404005": ("No such application.", "misconfigured"),
    "E405001": ("Method not allowed.", "server"),
    "E409001": ("userName is duplication.", "accountAlreadyExists"),
    "E413002": ("Request entity too large.", "server"),
    "E500001": ("System error.", "server"),
  ]

  /// Firestore: the `status` of each error answer → the expected shape.
  static let firestore: [String: (message: String, expected: String)] = [
    "INVALID_ARGUMENT": (
      "Invalid value at 'fields.score' (doubleValue): expected a number",
      "invalidInput(fields.score)"
    ),
    "PERMISSION_DENIED": ("Missing or insufficient permissions.", "permissionDenied"),
    "FAILED_PRECONDITION": ("users/x: no account", "server"),
    "INTERNAL": ("", "server"),
  ]

  @Test("every Firebase Auth code the emulator sends has a row and an adapter rule")
  func firebaseCodesAreListed() {
    let sent = Self.codes(#"FirebaseError\(\s*"([A-Z][A-Z_]+)""#)
    #expect(sent.count > 20, "the scan found the emulator's codes")
    for code in sent.sorted() {
      #expect(Self.firebase[code] != nil, "emulator code \(code) has no expected mapping here")
      #expect(
        FirebaseErrorRule.table[code] != nil || code == "INTERNAL_ERROR",
        "emulator code \(code) has no rule in FirebaseErrorRule.table")
    }
  }

  @Test("each Firebase Auth code, as the emulator answers it, maps as listed")
  func firebaseMapping() {
    let context = FirebaseErrorContext(operation: "test", capability: .emailPassword)
    for (code, row) in Self.firebase.sorted(by: { $0.key < $1.key }) {
      var error = FirebaseError(code, row.detail)
      if code == "INTERNAL_ERROR" { error.status = 500 }
      let mapped = FirebaseErrorMapper.error(for: error.response, context: context)
      #expect(Self.shape(mapped.code) == row.expected, "\(code) → \(mapped.code)")
      #expect(mapped.backendCode?.rawValue == code, "\(code) keeps its backend code")
    }
    for (detail, field) in Self.invalidArguments {
      var error = FirebaseError("INVALID_ARGUMENT", detail)
      error.statusText = "INVALID_ARGUMENT"
      let mapped = FirebaseErrorMapper.error(for: error.response, context: context)
      #expect(Self.shape(mapped.code) == "invalidInput(\(field))", "\(detail) → \(mapped.code)")
    }
  }

  @Test("every NCMB code the emulator sends has a row, and maps as listed")
  func ncmbMapping() throws {
    let sent = Self.codes(#"NCMBError\(\s*"(E[0-9]{6})""#)
    #expect(sent.count > 15, "the scan found the emulator's codes")
    for code in sent.sorted() {
      #expect(Self.ncmb[code] != nil, "emulator code \(code) has no expected mapping here")
    }
    for (code, row) in Self.ncmb.sorted(by: { $0.key < $1.key }) {
      let answer = NCMBError(code, row.message).response
      let body = try #require(
        try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
      let mapped = NCMBErrorMapping.error(
        code: try #require(body["code"] as? String), message: body["error"] as? String,
        status: answer.status, sentSessionToken: false)
      #expect(Self.shape(mapped.code) == row.expected, "\(code) → \(mapped.code)")
    }
  }

  @Test("every Firestore status the emulator sends has a row, and maps as listed")
  func firestoreMapping() {
    let sent = Self.codes(#"status: "([A-Z_]+)""#).subtracting([
      "UNAUTHENTICATED", "NOT_FOUND", "ALREADY_EXISTS",
    ])
    for status in sent.sorted() {
      #expect(
        Self.firestore[status] != nil, "emulator status \(status) has no expected mapping here")
    }
    for (status, row) in Self.firestore.sorted(by: { $0.key < $1.key }) {
      let httpStatus =
        ["INVALID_ARGUMENT": 400, "PERMISSION_DENIED": 403, "FAILED_PRECONDITION": 400][status]
        ?? 500
      let answer = FirestoreError(code: httpStatus, message: row.message, status: status).response
      let mapped = FirestoreErrorMapping.error(for: answer, operation: "commit")
      #expect(Self.shape(mapped.code) == row.expected, "\(status) → \(mapped.code)")
    }
  }
}
