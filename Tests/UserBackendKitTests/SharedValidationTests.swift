import Foundation
import Testing
import UserBackendKit

/// The one-call input checks every adapter shares (``CredentialValidation``).
@Suite("shared input validation of the operations", .timeLimit(.minutes(1)))
struct SharedValidationTests {
  static let emailOnly: Set<Capability> = [.emailPassword, .tokenRefresh]
  static let both: Set<Capability> = [.emailPassword, .usernamePassword]
  static let usernameOnly: Set<Capability> = [.usernamePassword]

  @Test(
    "an identifier kind the backend lacks is refused first, naming the capability",
    arguments: [
      (PasswordCredential.username("ada", password: ""), emailOnly, "unsupported:usernamePassword"),
      (
        PasswordCredential.email("ada@example.com", password: ""), usernameOnly,
        "unsupported:emailPassword"
      ),
      (PasswordCredential.username("ada", password: ""), both, "invalidInput:password"),
      (PasswordCredential.email(" ADA@Example.com ", password: "secret1"), emailOnly, "ok"),
    ])
  func kinds(_ credential: PasswordCredential, _ capabilities: Set<Capability>, _ expected: String)
  {
    var outcome = "ok"
    do {
      let valid = try CredentialValidation.validate(
        credential, forSignUp: true, capabilities: capabilities)
      if case .email(let email) = valid.identifier { #expect(email == "ada@example.com") }
    } catch {
      switch error.code {
      case .unsupported(let capability): outcome = "unsupported:\(capability.rawValue)"
      case .invalidInput(let field, _): outcome = "invalidInput:\(field)"
      default: outcome = error.code.name
      }
    }
    #expect(outcome == expected)
  }

  @Test("phone numbers: empty names the field; valid ones come back canonical")
  func phoneNumbers() throws {
    for bad in ["", "   ", "09012345678", "+81 abc"] {
      #expect {
        try CredentialValidation.validatePhoneNumber(bad)
      } throws: { error in
        guard let error = error as? UserBackendError,
          case .invalidInput(let field, _) = error.code
        else { return false }
        return field == "phoneNumber"
      }
    }
    #expect(try CredentialValidation.validatePhoneNumber(" +819012345678 ") == "+819012345678")
  }

  @Test(
    "phone sign-in input: verification ID and code are trimmed and checked",
    arguments: [
      ("", "123456", "verificationID"), ("  ", "123456", "verificationID"),
      ("v", "", "code"), ("v", "12a456", "code"), ("v", "１２３", "code"),
    ])
  func phoneSignIn(_ verificationID: String, _ code: String, _ field: String) {
    do {
      _ = try CredentialValidation.validatePhoneSignIn(verificationID: verificationID, code: code)
      Issue.record("accepted \(verificationID) / \(code)")
    } catch {
      guard case .invalidInput(let named, _) = error.code else {
        Issue.record("expected invalidInput, got \(error)")
        return
      }
      #expect(named == field)
    }
  }

  @Test("phone sign-in input that passes comes back trimmed")
  func phoneSignInTrimmed() throws {
    let (verificationID, code) = try CredentialValidation.validatePhoneSignIn(
      verificationID: " v1 ", code: " 1234 ")
    #expect(verificationID == "v1")
    #expect(code == "1234")
  }
}
