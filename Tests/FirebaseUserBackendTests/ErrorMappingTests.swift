import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// One server `message` and the portable code it must become.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  let message: String
  let expected: UserBackendError.Code
  var testDescription: String { message }

  init(_ message: String, _ expected: UserBackendError.Code) {
    self.message = message
    self.expected = expected
  }

  var rawCode: String {
    message.components(separatedBy: " : ").first ?? message
  }

  /// Every Identity Toolkit code the official SDKs map, plus the Secure Token, phone,
  /// identity-provider and project-setup codes. Context: an email/password call that
  /// carried no session.
  static let all: [ErrorCase] = [
    ErrorCase("EMAIL_EXISTS", .accountAlreadyExists),
    ErrorCase("EMAIL_NOT_FOUND", .invalidCredentials),
    ErrorCase(
      "INVALID_PASSWORD : The password is invalid or the user does not have a password.",
      .invalidCredentials),
    ErrorCase("INVALID_LOGIN_CREDENTIALS", .invalidCredentials),
    ErrorCase(
      "USER_DISABLED : The user account has been disabled by an administrator.", .userDisabled),
    ErrorCase(
      "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled.",
      .rateLimited(retryAfter: nil)),
    ErrorCase(
      "WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword(minimumLength: 6)),
    ErrorCase(
      "WEAK_PASSWORD : Password should be at least 8 characters", .weakPassword(minimumLength: 8)),
    ErrorCase("WEAK_PASSWORD", .weakPassword(minimumLength: 6)),
    ErrorCase(
      "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must "
        + "contain at least 10 characters]", .weakPassword(minimumLength: 10)),
    ErrorCase("INVALID_EMAIL", .invalidEmail),
    ErrorCase("MISSING_EMAIL", .invalidInput(field: "email", reason: "")),
    ErrorCase("MISSING_PASSWORD", .invalidInput(field: "password", reason: "")),
    ErrorCase("OPERATION_NOT_ALLOWED", .unsupported(capability: .emailPassword)),
    ErrorCase("PASSWORD_LOGIN_DISABLED", .unsupported(capability: .emailPassword)),
    ErrorCase("ADMIN_ONLY_OPERATION", .unsupported(capability: .emailPassword)),
    ErrorCase("INVALID_ID_TOKEN", .sessionExpired),
    ErrorCase("TOKEN_EXPIRED", .sessionExpired),
    ErrorCase("USER_NOT_FOUND", .sessionExpired),
    ErrorCase("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
    ErrorCase("USER_MISMATCH", .userMismatch),
    ErrorCase("INVALID_REFRESH_TOKEN", .sessionExpired),
    ErrorCase("INVALID_GRANT_TYPE", server("INVALID_GRANT_TYPE")),
    ErrorCase("MISSING_REFRESH_TOKEN", server("MISSING_REFRESH_TOKEN")),
    ErrorCase("MISSING_GRANT_TYPE", server("MISSING_GRANT_TYPE")),
    ErrorCase("PROJECT_NUMBER_MISMATCH", .misconfigured(setting: "apiKey", reason: "")),
    ErrorCase("EXPIRED_OOB_CODE", .invalidInput(field: "code", reason: "")),
    ErrorCase("INVALID_OOB_CODE", .invalidInput(field: "code", reason: "")),
    ErrorCase("MISSING_OOB_CODE", .invalidInput(field: "code", reason: "")),
    ErrorCase("RESET_PASSWORD_EXCEED_LIMIT", .rateLimited(retryAfter: nil)),
    ErrorCase("INVALID_IDP_RESPONSE", .invalidCredentials),
    ErrorCase("INVALID_PENDING_TOKEN", .invalidCredentials),
    ErrorCase("FEDERATED_USER_ID_ALREADY_LINKED", .accountAlreadyExists),
    ErrorCase("INVALID_CUSTOM_TOKEN", .invalidCredentials),
    ErrorCase("CREDENTIAL_MISMATCH", .invalidCredentials),
    ErrorCase("MISSING_REQ_TYPE", server("MISSING_REQ_TYPE")),
    ErrorCase("INVALID_CONTINUE_URI", server("INVALID_CONTINUE_URI")),
    ErrorCase("MISSING_CONTINUE_URI", server("MISSING_CONTINUE_URI")),
    ErrorCase("UNAUTHORIZED_DOMAIN", server("UNAUTHORIZED_DOMAIN")),
    ErrorCase("INVALID_IDENTIFIER", .invalidEmail),
    ErrorCase("EMAIL_CHANGE_NEEDS_VERIFICATION", server("EMAIL_CHANGE_NEEDS_VERIFICATION")),
    ErrorCase("UNVERIFIED_EMAIL", server("UNVERIFIED_EMAIL")),
    ErrorCase("SECOND_FACTOR_EXISTS", server("SECOND_FACTOR_EXISTS")),
    ErrorCase("SECOND_FACTOR_LIMIT_EXCEEDED", server("SECOND_FACTOR_LIMIT_EXCEEDED")),
    ErrorCase("MFA_ENROLLMENT_NOT_FOUND", server("MFA_ENROLLMENT_NOT_FOUND")),
    ErrorCase("INVALID_MFA_PENDING_CREDENTIAL", server("INVALID_MFA_PENDING_CREDENTIAL")),
    ErrorCase("MISSING_MFA_PENDING_CREDENTIAL", server("MISSING_MFA_PENDING_CREDENTIAL")),
    ErrorCase("MISSING_MFA_ENROLLMENT_ID", server("MISSING_MFA_ENROLLMENT_ID")),
    ErrorCase("UNSUPPORTED_FIRST_FACTOR", .unsupported(capability: .emailPassword)),
    ErrorCase("TENANT_ID_MISMATCH", server("TENANT_ID_MISMATCH")),
    ErrorCase("UNSUPPORTED_TENANT_OPERATION", .unsupported(capability: .emailPassword)),
    ErrorCase("INVALID_TENANT_ID", server("INVALID_TENANT_ID")),
    ErrorCase("BLOCKING_FUNCTION_ERROR_RESPONSE", server("BLOCKING_FUNCTION_ERROR_RESPONSE")),
    ErrorCase("MISSING_RECAPTCHA_TOKEN", appVerification),
    ErrorCase("INVALID_RECAPTCHA_TOKEN", appVerification),
    ErrorCase("INVALID_RECAPTCHA_ACTION", server("INVALID_RECAPTCHA_ACTION")),
    ErrorCase("MISSING_RECAPTCHA_VERSION", server("MISSING_RECAPTCHA_VERSION")),
    ErrorCase("INVALID_RECAPTCHA_VERSION", server("INVALID_RECAPTCHA_VERSION")),
    ErrorCase("CAPTCHA_CHECK_FAILED", appVerification),
    // Phone.
    ErrorCase(
      "INVALID_PHONE_NUMBER : Invalid format.", .invalidInput(field: "phoneNumber", reason: "")),
    ErrorCase("MISSING_PHONE_NUMBER", .invalidInput(field: "phoneNumber", reason: "")),
    ErrorCase("INVALID_CODE", .invalidCredentials),
    ErrorCase("SESSION_EXPIRED", .invalidCredentials),
    ErrorCase("INVALID_SESSION_INFO", .invalidCredentials),
    ErrorCase("MISSING_SESSION_INFO", .invalidInput(field: "verificationID", reason: "")),
    ErrorCase("MISSING_CODE", .invalidInput(field: "code", reason: "")),
    ErrorCase("QUOTA_EXCEEDED", .rateLimited(retryAfter: nil)),
    ErrorCase("INVALID_APP_CREDENTIAL", appVerification),
    ErrorCase("MISSING_APP_CREDENTIAL", appVerification),
    ErrorCase("MISSING_CLIENT_IDENTIFIER", appVerification),
    ErrorCase("MISSING_IOS_APP_TOKEN", appVerification),
    // Project setup.
    ErrorCase("CONFIGURATION_NOT_FOUND", .misconfigured(setting: "apiKey", reason: "")),
    ErrorCase("BILLING_NOT_ENABLED", .misconfigured(setting: "apiKey", reason: "")),
    ErrorCase("INVALID_TEMPORARY_PROOF", .invalidCredentials),
    ErrorCase("PHONE_NUMBER_EXISTS", .accountAlreadyExists),
    // Identity providers.
    ErrorCase("MISSING_OR_INVALID_NONCE", .invalidCredentials),
    // Unknown codes stay values.
    ErrorCase("SOME_FUTURE_CODE : with detail", server("SOME_FUTURE_CODE")),
  ]

  static let appVerification = UserBackendError.Code.invalidInput(
    field: "appVerification", reason: "")

  static func server(_ code: String) -> UserBackendError.Code {
    .server(status: 400, code: code, message: nil)
  }
}

/// Compares codes, ignoring free-text reasons and messages.
func sameCase(_ actual: UserBackendError.Code, _ expected: UserBackendError.Code) -> Bool {
  switch (actual, expected) {
  case (.invalidInput(let a, _), .invalidInput(let b, _)): a == b
  case (.misconfigured(let a, _), .misconfigured(let b, _)): a == b
  case (.server(let s1, let c1, _), .server(let s2, let c2, _)): s1 == s2 && c1 == c2
  case (.network, .network), (.malformedResponse, .malformedResponse): true
  default: actual == expected
  }
}

@Suite("Firebase error mapping", .timeLimit(.minutes(2)))
struct ErrorMappingTests {
  private let signInContext = FirebaseErrorContext(
    operation: "accounts:signInWithPassword", capability: .emailPassword)

  @Test("every documented code maps to its portable case", arguments: ErrorCase.all)
  func table(_ errorCase: ErrorCase) {
    let response = StubTransport.json(400, Fixture.errorBody(errorCase.message))
    let error = FirebaseErrorMapper.error(for: response, context: signInContext)
    #expect(sameCase(error.code, errorCase.expected), "got \(error.code)")
    #expect(error.backendCode?.rawValue == errorCase.rawCode)
    let parts = errorCase.message.components(separatedBy: " : ")
    if parts.count == 2 { #expect(error.message == parts[1]) }
  }

  @Test(
    "session-revoking codes become sessionExpired when the call used the session",
    arguments: [
      "USER_NOT_FOUND", "USER_DISABLED", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN",
      "INVALID_ID_TOKEN",
    ])
  func sessionContext(code: String) {
    let context = FirebaseErrorContext(
      operation: "token", capability: .tokenRefresh, usesSession: true)
    let error = FirebaseErrorMapper.error(
      for: StubTransport.json(400, Fixture.errorBody(code)), context: context)
    #expect(error.code == .sessionExpired)
    #expect(error.backendCode?.rawValue == code)
  }

  @Test("OPERATION_NOT_ALLOWED names the capability of the call")
  func unsupportedCapability() {
    let context = FirebaseErrorContext(operation: "accounts:signUp", capability: .anonymousSignIn)
    let error = FirebaseErrorMapper.error(
      for: StubTransport.json(
        400, Fixture.errorBody("OPERATION_NOT_ALLOWED : Anonymous user sign-in is disabled")),
      context: context)
    #expect(error.code == .unsupported(capability: .anonymousSignIn))
    #expect(error.message == "Anonymous user sign-in is disabled")
  }

  @Test(
    "API key rejections become misconfigured(apiKey) 'wrong API key?'",
    arguments: [
      (
        400,
        #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","errors":[{"message":"API key not valid. Please pass a valid API key.","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"identitytoolkit.googleapis.com"}}]}}"#
      ),
      (
        400,
        #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#
      ),
      (400, #"{"error":{"code":400,"message":"Bad key","errors":[{"reason":"keyInvalid"}]}}"#),
      (
        403,
        #"{"error":{"code":403,"message":"The request is missing a valid API key.","status":"PERMISSION_DENIED"}}"#
      ),
    ])
  func apiKey(status: Int, body: String) {
    let error = FirebaseErrorMapper.error(
      for: StubTransport.json(status, body), context: signInContext)
    #expect(
      error.code
        == .misconfigured(
          setting: "apiKey", reason: "the server rejected the API key (wrong API key?)"))
  }

  @Test(
    "5xx answers become server(status:)",
    arguments: [
      (500, Fixture.errorBody("INTERNAL_ERROR", status: 500), "INTERNAL_ERROR" as String?),
      (502, "<html><body>Bad Gateway</body></html>", nil),
      (503, "", nil),
    ])
  func serverErrors(status: Int, body: String, code: String?) {
    let response = HTTPResponse(
      status: status, headerFields: ["Content-Type": "text/html"], body: Data(body.utf8))
    let error = FirebaseErrorMapper.error(for: response, context: signInContext)
    guard case .server(let gotStatus, let gotCode, _) = error.code else {
      Issue.record("expected server, got \(error.code)")
      return
    }
    #expect(gotStatus == status)
    #expect(gotCode == code)
  }

  @Test("429 without a JSON body is rateLimited with Retry-After")
  func tooManyRequests() {
    let response = HTTPResponse(
      status: 429, headerFields: ["Retry-After": "30"], body: Data("slow down".utf8))
    let error = FirebaseErrorMapper.error(for: response, context: signInContext)
    #expect(error.code == .rateLimited(retryAfter: 30))
  }

  @Test("an OAuth-style error body keeps its code")
  func oauthStyle() {
    let response = StubTransport.json(
      400, #"{"error":"invalid_grant","error_description":"Bad Request"}"#)
    let error = FirebaseErrorMapper.error(for: response, context: signInContext)
    #expect(error.code == .server(status: 400, code: "invalid_grant", message: "Bad Request"))
  }

  @Test(
    "HTML pages, truncated JSON and wrong shapes become malformedResponse",
    arguments: [
      (200, "<!DOCTYPE html><html><body>Error 404 (Not Found)!!1</body></html>"),
      (200, #"{"localId":"uid-1","idToken":"eyJ"#),
      (200, #"{"localId":"uid-1"}"#),
      (200, #"{"localId":42,"idToken":"a","refreshToken":"b"}"#),
      (200, ""),
      (404, "<html><body>Not Found</body></html>"),
      (400, #"{"error":{"code":400,"message":"EMAIL_EXI"#),
    ])
  func malformed(status: Int, body: String) async throws {
    let server = StubTransport { _ in
      HTTPResponse(
        status: status, headerFields: ["Content-Type": "text/html"], body: Data(body.utf8))
    }
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    guard case .malformedResponse(let reason) = error?.code else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(!reason.isEmpty)
    #expect(try await backend.currentUser() == nil)
  }

  @Test(
    "transport failures become network errors without the URL",
    arguments: [
      HTTPTransportError.timedOut as any Error & Sendable,
      HTTPTransportError.connectionFailed(reason: "connection refused"),
      CancellationError(),
      URLError(
        .notConnectedToInternet,
        userInfo: [
          NSURLErrorFailingURLErrorKey: URL(
            string:
              "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(Fixture.apiKey)")!
        ]),
    ])
  func network(_ failure: any Error & Sendable) async throws {
    let backend = try Fixture.backend(StubTransport { _ in throw failure })
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signUp(.email("alice@example.com", password: "s3cret-pw"))
    }
    guard case .network(let reason) = error?.code else {
      Issue.record("expected network, got \(String(describing: error))")
      return
    }
    #expect(!reason.contains("googleapis"))
    #expect(!reason.contains(Fixture.apiKey))
  }

  @Test("a sign-in error answer reaches the caller mapped, with its detail")
  func endToEnd() async throws {
    let server = StubTransport(
      status: 400, json: Fixture.errorBody("INVALID_PASSWORD : The password is invalid."))
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("alice@example.com", password: "wrong-pw"))
    }
    #expect(error?.code == .invalidCredentials)
    #expect(error?.backendCode == "INVALID_PASSWORD")
    #expect(error?.message == "The password is invalid.")
  }
}
