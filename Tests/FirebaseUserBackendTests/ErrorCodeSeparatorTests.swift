import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// One code of the table written in one of the forms the services use.
struct SeparatorCase: Sendable, CustomTestStringConvertible {
  let errorCase: ErrorCase
  let message: String
  /// `true` when the form keeps the table entry's detail.
  let keepsDetail: Bool
  var testDescription: String { message }

  /// Every code of ``ErrorCase/all`` as `CODE`, `CODE:`, `CODE : detail`, `CODE: detail`
  /// and `CODE :detail`.
  static let all: [SeparatorCase] = ErrorCase.all.flatMap { errorCase -> [SeparatorCase] in
    let code = errorCase.rawCode
    let detail = errorCase.message.components(separatedBy: " : ").dropFirst().first
    let text = detail ?? "some detail"
    return [
      SeparatorCase(errorCase: errorCase, message: code, keepsDetail: detail == nil),
      SeparatorCase(errorCase: errorCase, message: code + ":", keepsDetail: detail == nil),
      SeparatorCase(errorCase: errorCase, message: code + " : " + text, keepsDetail: true),
      SeparatorCase(errorCase: errorCase, message: code + ": " + text, keepsDetail: true),
      SeparatorCase(errorCase: errorCase, message: code + " :" + text, keepsDetail: true),
    ]
  }
}

@Suite("Firebase error codes are split at the first colon", .timeLimit(.minutes(1)))
struct ErrorCodeSeparatorTests {
  private let signInContext = FirebaseErrorContext(
    operation: "accounts:signInWithPassword", capability: .emailPassword)

  @Test(
    "every code of the table, with or without a detail after a colon", arguments: SeparatorCase.all)
  func everyForm(_ form: SeparatorCase) {
    let error = FirebaseErrorMapper.error(
      for: StubTransport.json(400, Fixture.errorBody(form.message)), context: signInContext)
    #expect(error.backendCode?.rawValue == form.errorCase.rawCode, "got \(error)")
    if form.keepsDetail {
      #expect(sameCase(error.code, form.errorCase.expected), "got \(error.code)")
    } else {
      #expect(error.code.name == form.errorCase.expected.name, "got \(error.code)")
    }
  }

  @Test("a sign-in answered TOO_MANY_ATTEMPTS_TRY_LATER: is rateLimited")
  func bareColonSignIn() async throws {
    let server = StubTransport(
      status: 400, json: #"{"error":{"message":"TOO_MANY_ATTEMPTS_TRY_LATER:"}}"#)
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    #expect(error?.code == .rateLimited(retryAfter: nil))
    #expect(error?.backendCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
  }

  @Test(
    "the detail after the first colon is kept whole, colons included",
    arguments: [
      ("WEAK_PASSWORD: Password: too short", "WEAK_PASSWORD", "Password: too short"),
      ("USER_DISABLED:The account is disabled", "USER_DISABLED", "The account is disabled"),
      ("  EMAIL_EXISTS  :  ", "EMAIL_EXISTS", nil),
    ] as [(String, String, String?)])
  func detailKept(message: String, code: String, detail: String?) {
    let parts = FirebaseErrorMessage(message)
    #expect(parts.code == code)
    #expect(parts.detail == detail)
  }

  @Test(
    "a sentence with a colon has no code",
    arguments: [
      #"Invalid JSON payload received. Unknown name \"refresh_tokens\": Cannot bind query parameter."#,
      "API key not valid. Please pass a valid API key.",
      ": leading colon",
    ])
  func sentences(message: String) {
    let parts = FirebaseErrorMessage(message)
    #expect(parts.code == nil)
    #expect(parts.detail != nil)
  }
}

@Suite("Project-setup and key-restriction failures are misconfigured", .timeLimit(.minutes(1)))
struct SetupProblemTests {
  private let signInContext = FirebaseErrorContext(
    operation: "accounts:signInWithPassword", capability: .emailPassword)

  private func map(_ status: Int, _ body: String) -> UserBackendError {
    FirebaseErrorMapper.error(for: StubTransport.json(status, body), context: signInContext)
  }

  @Test(
    "setup problems name the actual problem and never blame the key",
    arguments: [
      (
        400, Fixture.errorBody("CONFIGURATION_NOT_FOUND"), "CONFIGURATION_NOT_FOUND",
        "Authentication"
      ),
      (
        400, Fixture.errorBody("CONFIGURATION_NOT_FOUND:"), "CONFIGURATION_NOT_FOUND",
        "Authentication"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests from referer <empty> are blocked.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_HTTP_REFERRER_BLOCKED","domain":"googleapis.com"}]}}"#,
        "API_KEY_HTTP_REFERRER_BLOCKED", "referrer"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests from referer <empty> are blocked.","errors":[{"message":"Requests from referer <empty> are blocked.","domain":"global","reason":"ipRefererBlocked"}]}}"#,
        "ipRefererBlocked", "referrer"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests from this iOS client application <empty> are blocked.","status":"PERMISSION_DENIED","details":[{"reason":"API_KEY_IOS_APP_BLOCKED"}]}}"#,
        "API_KEY_IOS_APP_BLOCKED", "iOS"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests from this Android client application <empty> are blocked.","status":"PERMISSION_DENIED","details":[{"reason":"API_KEY_ANDROID_APP_BLOCKED"}]}}"#,
        "API_KEY_ANDROID_APP_BLOCKED", "Android"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"The provided API key has an IP address restriction.","status":"PERMISSION_DENIED","details":[{"reason":"API_KEY_IP_ADDRESS_BLOCKED"}]}}"#,
        "API_KEY_IP_ADDRESS_BLOCKED", "IP address"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests to this API identitytoolkit method google.cloud.identitytoolkit.v1.AuthenticationService.SignInWithPassword are blocked.","status":"PERMISSION_DENIED","details":[{"reason":"API_KEY_SERVICE_BLOCKED"}]}}"#,
        "API_KEY_SERVICE_BLOCKED", "Identity Toolkit API"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Requests to this API identitytoolkit method google.cloud.identitytoolkit.v1.AuthenticationService.SignUp are blocked.","status":"PERMISSION_DENIED"}}"#,
        "PERMISSION_DENIED", "Identity Toolkit API"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Identity Toolkit API has not been used in project 123 before or it is disabled.","status":"PERMISSION_DENIED","details":[{"reason":"SERVICE_DISABLED"}]}}"#,
        "SERVICE_DISABLED", "not enabled"
      ),
      (
        403,
        #"{"error":{"code":403,"message":"Access Not Configured.","errors":[{"reason":"accessNotConfigured"}]}}"#,
        "accessNotConfigured", "not enabled"
      ),
      (400, Fixture.errorBody("BILLING_NOT_ENABLED"), "BILLING_NOT_ENABLED", "billing"),
    ] as [(Int, String, String, String)])
  func setupProblems(status: Int, body: String, code: String, mentions: String) {
    let error = map(status, body)
    guard case .misconfigured(let setting, let reason) = error.code else {
      Issue.record("expected misconfigured, got \(error.code)")
      return
    }
    #expect(setting == "apiKey")
    #expect(error.backendCode?.rawValue == code)
    #expect(reason.contains(mentions), "\(reason)")
    #expect(!reason.contains("wrong API key"), "\(reason)")
  }

  @Test(
    "only a key that is itself invalid is 'wrong API key?'",
    arguments: [
      #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#,
      #"{"error":{"code":400,"message":"Bad key","errors":[{"reason":"keyInvalid"}]}}"#,
      #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#,
    ])
  func invalidKey(body: String) {
    let error = map(400, body)
    guard case .misconfigured(let setting, let reason) = error.code else {
      Issue.record("expected misconfigured, got \(error.code)")
      return
    }
    #expect(setting == "apiKey")
    #expect(reason.contains("wrong API key"))
  }

  @Test("an expired key says it expired")
  func expiredKey() {
    let error = map(
      400,
      #"{"error":{"code":400,"message":"API key expired. Please renew the API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#
    )
    guard case .misconfigured(_, let reason) = error.code else {
      Issue.record("expected misconfigured, got \(error.code)")
      return
    }
    #expect(reason.contains("expired"))
  }

  @Test("a sign-in against a project without Authentication set up is misconfigured")
  func endToEnd() async throws {
    let server = StubTransport(status: 400, json: Fixture.errorBody("CONFIGURATION_NOT_FOUND"))
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    }
    guard case .misconfigured = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
  }
}

@Suite("A rejected SMS code says the code is wrong or expired", .timeLimit(.minutes(1)))
struct SMSCodeMessageTests {
  @Test(
    "every SMS-code failure of the phone sign-in",
    arguments: [
      "INVALID_CODE", "INVALID_CODE:", "SESSION_EXPIRED", "SESSION_EXPIRED : ",
      "INVALID_SESSION_INFO", "INVALID_SESSION_INFO : Invalid session",
    ])
  func message(code: String) async throws {
    let server = StubTransport(status: 400, json: Fixture.errorBody(code))
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(verificationID: "session-info-1", code: "123456")
    }
    #expect(error?.code == .invalidCredentials)
    let message = error?.message.lowercased() ?? ""
    #expect(message.contains("code"), "\(message)")
    #expect(message.contains("wrong") && message.contains("expired"), "\(message)")
    #expect(!message.contains("password"), "\(message)")
  }
}
