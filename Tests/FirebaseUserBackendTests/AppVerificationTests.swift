import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Phone verification carries the app-verification proof", .timeLimit(.minutes(1)))
struct AppVerificationTests {
  static let sessionInfo = #"{"sessionInfo":"session-info-1"}"#

  private func sentBody(_ proof: AppVerificationProof?) async throws -> [String: String] {
    let server = StubTransport(json: Self.sessionInfo)
    let backend = try Fixture.backend(server)
    let id = try await backend.startPhoneVerification(
      phoneNumber: "+819012345678", appVerification: proof)
    #expect(id == "session-info-1")
    let request = try #require(server.requests.first)
    #expect(request.operation == "accounts:sendVerificationCode")
    let object = try JSONSerialization.jsonObject(with: request.body)
    return try #require(object as? [String: String])
  }

  @Test(
    "each kind of proof is sent in its documented fields, and nothing else",
    arguments: [
      (
        AppVerificationProof.iosReceipt(receipt: "receipt-AAA", secret: "secret-BBB"),
        ["iosReceipt": "receipt-AAA", "iosSecret": "secret-BBB"]
      ),
      (.recaptcha(token: "recaptcha-CCC"), ["recaptchaToken": "recaptcha-CCC"]),
      (
        .recaptchaEnterprise(token: "enterprise-DDD", clientType: .web),
        [
          "captchaResponse": "enterprise-DDD", "clientType": "CLIENT_TYPE_WEB",
          "recaptchaVersion": "RECAPTCHA_ENTERPRISE",
        ]
      ),
      (.playIntegrity(token: "integrity-EEE"), ["playIntegrityToken": "integrity-EEE"]),
    ])
  func fields(proof: AppVerificationProof, expected: [String: String]) async throws {
    let body = try await sentBody(proof)
    #expect(body == expected.merging(["phoneNumber": "+819012345678"]) { $1 })
  }

  @Test("without a proof only the phone number is sent (the emulator accepts that)")
  func noProof() async throws {
    #expect(try await sentBody(nil) == ["phoneNumber": "+819012345678"])
    let server = StubTransport(json: Self.sessionInfo)
    _ = try await Fixture.backend(server).startPhoneVerification(phoneNumber: "+819012345678")
    #expect(server.requests.first?.bodyText == #"{"phoneNumber":"+819012345678"}"#)
  }

  @Test(
    "missing or rejected proofs say what is needed",
    arguments: [
      ("MISSING_APP_CREDENTIAL", "none was sent"),
      ("MISSING_APP_CREDENTIAL : This request is missing a valid app identifier", "none was sent"),
      ("INVALID_APP_CREDENTIAL", "iOS receipt"),
      ("CAPTCHA_CHECK_FAILED : Recaptcha verification failed - EXPIRED", "reCAPTCHA"),
      ("INVALID_RECAPTCHA_TOKEN", "reCAPTCHA"),
      ("MISSING_RECAPTCHA_TOKEN", "reCAPTCHA token"),
      ("MISSING_CLIENT_IDENTIFIER", "identifies the app"),
      ("MISSING_IOS_APP_TOKEN", "iOS receipt and secret"),
    ])
  func proofErrors(message: String, mentions: String) async throws {
    let server = StubTransport(status: 400, json: Fixture.errorBody(message))
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.startPhoneVerification(
        phoneNumber: "+819012345678", appVerification: .recaptcha(token: "recaptcha-SECRET"))
    }
    guard case .invalidInput(let field, let reason) = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "appVerification")
    #expect(reason.contains(mentions), "\(reason)")
    #expect(error?.backendCode?.rawValue == message.components(separatedBy: " : ")[0])
  }

  @Test("a proof echoed by the server never reaches the error")
  func scrubbed() async throws {
    let server = StubTransport(
      status: 400,
      json: Fixture.errorBody("CAPTCHA_CHECK_FAILED : token recaptcha-SECRET-42 is bad"))
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.startPhoneVerification(
        phoneNumber: "+819012345678", appVerification: .recaptcha(token: "recaptcha-SECRET-42"))
    }
    #expect(!(error.map { "\($0) \($0.code)" } ?? "").contains("recaptcha-SECRET-42"))
  }

  @Test(
    "a malformed proof is invalidInput before any request, without its value",
    arguments: [
      AppVerificationProof.recaptcha(token: ""), .playIntegrity(token: "has space-SECRET"),
      .iosReceipt(receipt: "r-SECRET", secret: ""),
      .recaptcha(token: String(repeating: "x", count: 16_385)),
    ])
  func malformedProof(proof: AppVerificationProof) async throws {
    let server = StubTransport(json: Self.sessionInfo)
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.startPhoneVerification(
        phoneNumber: "+819012345678", appVerification: proof)
    }
    guard case .invalidInput(let field, _) = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "appVerification")
    #expect(server.count == 0)
    #expect(!"\(String(describing: error))".contains("SECRET"))
  }

  @Test(
    "the KIND:VALUE text form",
    arguments: [
      (
        "ios:receipt-1:secret-2",
        AppVerificationProof.iosReceipt(receipt: "receipt-1", secret: "secret-2")
      ),
      ("recaptcha:tok-3", .recaptcha(token: "tok-3")),
      ("RECAPTCHA-ENTERPRISE:tok-4", .recaptchaEnterprise(token: "tok-4", clientType: .web)),
      ("play-integrity:tok:5", .playIntegrity(token: "tok:5")),
      (" recaptcha:tok-6\n", .recaptcha(token: "tok-6")),
    ])
  func parsing(text: String, expected: AppVerificationProof) throws {
    #expect(try AppVerificationProof(parsing: text) == expected)
  }

  @Test(
    "malformed text forms name the field, never the value",
    arguments: [
      "recaptcha", "safetynet:tok-VALUE42", "ios:only-VALUE42", "recaptcha:", ":tok-VALUE42",
    ])
  func badText(text: String) throws {
    let error = try #require(throws: UserBackendError.self) {
      try AppVerificationProof(parsing: text)
    }
    guard case .invalidInput(let field, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == "appVerification")
    #expect(!error.description.contains("VALUE42"))
  }

  @Test("the description names the kind only")
  func description() {
    let proof = AppVerificationProof.iosReceipt(receipt: "receipt-SECRET", secret: "secret-SECRET")
    #expect(!"\(proof)".contains("SECRET"))
    #expect(!String(reflecting: proof).contains("SECRET"))
  }
}
