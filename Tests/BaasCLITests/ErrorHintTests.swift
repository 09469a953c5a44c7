import Foundation
import Testing
import UserBackendKit

@testable import baas

@Suite("baas hints name the actual problem", .timeLimit(.minutes(2)))
struct ErrorHintTests {
  private func hint(_ error: UserBackendError) -> String {
    HumanOutput.hint(for: error, backend: "firebase") ?? ""
  }

  @Test("a listed maximum stays a maximum in the weak-password hint")
  func passwordMaximum() {
    let error = UserBackendError(
      .weakPassword(minimumLength: 6), backendCode: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS",
      message: "Missing password requirements: [Password may contain at most 25 characters]",
      passwordRequirements: PasswordRequirements(maximumLength: 25))
    #expect(hint(error).contains("at most 25 characters"))
    #expect(!hint(error).contains("at least"))
    #expect(hint(UserBackendError(.weakPassword(minimumLength: 8))).contains("at least 8"))
  }

  @Test(
    "'wrong API key?' only for a key the server refused as a key",
    arguments: [
      ("API_KEY_INVALID", "the server rejected the API key (wrong API key?)", true),
      (
        "CONFIGURATION_NOT_FOUND",
        "the Firebase project of this API key has not set up Authentication", false
      ),
      (
        "API_KEY_HTTP_REFERRER_BLOCKED",
        "the API key is valid but restricted to certain HTTP referrers", false
      ),
      ("SERVICE_DISABLED", "the Identity Toolkit API is not enabled", false),
      ("BILLING_NOT_ENABLED", "the project of this API key needs a billing account", false),
    ])
  func apiKeyHint(code: String, reason: String, blamesKey: Bool) {
    let error = UserBackendError(
      .misconfigured(setting: "apiKey", reason: reason),
      backendCode: BackendErrorCode(rawValue: code))
    #expect(hint(error).contains("wrong API key") == blamesKey, "\(hint(error))")
    #expect(!hint(error).isEmpty)
  }

  @Test(
    "SMS-code failures point at the code",
    arguments: ["INVALID_CODE", "SESSION_EXPIRED", "INVALID_SESSION_INFO"])
  func smsCode(code: String) {
    let error = UserBackendError(
      .invalidCredentials, backendCode: BackendErrorCode(rawValue: code),
      message: UserBackendError.smsCodeRejectedMessage)
    #expect(hint(error).contains("SMS code"))
  }

  @Test("a provider switched off in the project is not 'try --backend fake'")
  func providerDisabled() {
    let error = UserBackendError(
      .unsupported(capability: .emailPassword), backendCode: "OPERATION_NOT_ALLOWED")
    #expect(hint(error).contains("Sign-in method"))
    #expect(!hint(error).contains("--backend fake"))
  }

  @Test("a missing app-verification proof points at the option and the variable")
  func appVerification() {
    let error = UserBackendError(
      .invalidInput(field: "appVerification", reason: "none was sent"),
      backendCode: "MISSING_APP_CREDENTIAL")
    #expect(hint(error).contains("--app-verification"))
    #expect(hint(error).contains("BAAS_APP_VERIFICATION"))
  }

  @Test(
    "phone start: a malformed proof is a usage error naming its source, never its value",
    arguments: [
      (["--app-verification", "safetynet:tok-VALUE42"], [String: String](), "--app-verification"),
      ([], ["BAAS_APP_VERIFICATION": "ios:only-VALUE42"], "BAAS_APP_VERIFICATION"),
    ])
  func phoneStartBadProof(arguments: [String], environment: [String: String], source: String)
    async throws
  {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["phone", "start", "--phone-number", "+15555550100"] + arguments, environment: environment)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains(source), "\(result.allOutput)")
    #expect(!result.allOutput.contains("VALUE42"))
  }

  @Test("phone start on the fake accepts a proof and ignores it")
  func phoneStartFakeWithProof() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["phone", "start", "--phone-number", "+15555550100", "--json"],
      environment: ["BAAS_APP_VERIFICATION": "recaptcha:tok-VALUE42"])
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(!result.allOutput.contains("VALUE42"))
  }
}
