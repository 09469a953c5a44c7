import Testing
import UserBackendKit

@Suite(.timeLimit(.minutes(2))) struct CredentialValidationTests {
  /// One row: a credential, whether it is for sign-up, and the expected error (nil: valid).
  @Test(
    arguments: [
      (PasswordCredential.email("a@example.com", password: "secret1"), true, nil),
      (.email("  A@Example.COM ", password: "secret1"), true, nil),
      (.email("", password: "secret1"), true, "invalidInput:email"),
      (.email("   ", password: "secret1"), false, "invalidInput:email"),
      (.email("a@example.com", password: ""), false, "invalidInput:password"),
      (.email("a@example.com", password: ""), true, "invalidInput:password"),
      (.email("no-at-sign", password: "secret1"), true, "invalidEmail"),
      (.email("a@@example.com", password: "secret1"), true, "invalidEmail"),
      (.email("@example.com", password: "secret1"), true, "invalidEmail"),
      (.email("a@", password: "secret1"), true, "invalidEmail"),
      (.email("a b@example.com", password: "secret1"), true, "invalidEmail"),
      (.email("a@example.com", password: "12345"), true, "weakPassword:6"),
      (.email("a@example.com", password: "12345"), false, nil),
      (.email("a\u{202E}b@example.com", password: "secret1"), true, "invalidEmail"),
      (.email("a\u{200D}b@example.com", password: "secret1"), true, "invalidEmail"),
      (.email("caf\u{E9}@example.com", password: "secret1"), true, nil),
      (.username("ann", password: "secret1"), true, nil),
      (.username("  ", password: "secret1"), true, "invalidInput:username"),
    ] as [(PasswordCredential, Bool, String?)])
  func validation(credential: PasswordCredential, forSignUp: Bool, expected: String?) {
    var outcome: String?
    do {
      _ = try CredentialValidation.validate(credential, forSignUp: forSignUp)
    } catch {
      switch error.code {
      case .invalidInput(let field, _): outcome = "invalidInput:\(field)"
      case .weakPassword(let minimum): outcome = "weakPassword:\(minimum)"
      default: outcome = error.code.name
      }
    }
    #expect(outcome == expected)
  }

  @Test func validCredentialsComeBackCanonical() throws {
    let email = try CredentialValidation.validate(
      .email("  A@Example.COM ", password: " pw with spaces "), forSignUp: true)
    #expect(email.identifier == .email("a@example.com"))
    #expect(email.password == " pw with spaces ")
    let name = try CredentialValidation.validate(
      .username(" Ann ", password: "secret1"), forSignUp: false)
    #expect(name.identifier == .username("Ann"))
  }

  @Test("canonical emails are NFC: composed and decomposed forms give the same bytes")
  func canonicalEmailIsNFC() {
    let decomposed = CredentialValidation.canonicalEmail(" CAFE\u{301}@Example.com")
    let composed = CredentialValidation.canonicalEmail("caf\u{E9}@example.com")
    // String == already treats them as equal; stores compare bytes.
    #expect(Array(decomposed.utf8) == Array(composed.utf8))
    #expect(Array(composed.utf8) == Array("caf\u{E9}@example.com".utf8))
  }

  @Test func credentialDescriptionsNeverShowThePassword() {
    let credential = PasswordCredential.email("a@example.com", password: "hunter22")
    #expect(!"\(credential)".contains("hunter22"))
    #expect(!String(reflecting: credential).contains("hunter22"))
  }
}
