import Foundation
import Testing
import UserBackendKit

@Suite("CredentialValidation: length limits", .timeLimit(.minutes(2)))
struct ValidationLimitTests {
  static let email254 = String(repeating: "a", count: 242) + "@example.com"
  static let email255 = String(repeating: "a", count: 243) + "@example.com"
  static let password4096 = String(repeating: "p", count: 4096)
  static let password4097 = String(repeating: "p", count: 4097)
  static let name255 = String(repeating: "n", count: 255)
  static let name256 = String(repeating: "n", count: 256)

  /// `nil` expected code means the credential is accepted.
  @Test(
    "identifiers and passwords at the limit pass; one character more fails, naming the field",
    arguments: [
      (PasswordCredential.email(email254, password: "secret1"), nil as UserBackendError.Code?),
      (.email(email255, password: "secret1"), .invalidEmail),
      (.email("a@example.com", password: password4096), nil),
      (
        .email("a@example.com", password: password4097),
        .invalidInput(field: "password", reason: "must be at most 4096 characters")
      ),
      (.username(name255, password: "secret1"), nil),
      (
        .username(name256, password: "secret1"),
        .invalidInput(field: "username", reason: "must be at most 255 characters")
      ),
    ])
  func limits(_ credential: PasswordCredential, _ expected: UserBackendError.Code?) {
    for signUp in [true, false] {
      do {
        _ = try CredentialValidation.validate(credential, forSignUp: signUp)
        #expect(expected == nil, "expected \(String(describing: expected)), sign-up \(signUp)")
      } catch {
        #expect(error.code == expected, "sign-up \(signUp)")
        #expect(!error.description.contains(String(repeating: "p", count: 100)))
      }
    }
  }

  @Test("the limits are counted after trimming, in characters")
  func counting() throws {
    let padded = "  " + Self.email254 + "  "
    #expect(try CredentialValidation.validateEmail(padded) == Self.email254)
    let emoji = String(repeating: "é", count: 4096)
    #expect(throws: Never.self) { try CredentialValidation.validateNewPassword(emoji) }
  }
}

/// Limits count Unicode scalars: a short visible string made of one letter and thousands
/// of combining marks is as long as its code points, on every identifier and the password.
@Suite("Length limits count code points", .timeLimit(.minutes(1)))
struct CodePointLimitTests {
  static let marks = String(repeating: "\u{0301}", count: 5_000)

  @Test func anEmailOfCombiningMarksIsTooLong() {
    #expect(throws: UserBackendError.self) {
      try CredentialValidation.validate(
        .email("a" + Self.marks + "@example.com", password: "pw-123456"), forSignUp: true)
    }
  }

  @Test func aUserNameOfCombiningMarksIsTooLong() {
    #expect(throws: UserBackendError.self) {
      try CredentialValidation.validate(
        .username("a" + Self.marks, password: "pw-123456"), forSignUp: true)
    }
  }

  @Test func aPasswordOfCombiningMarksIsTooLong() {
    #expect(throws: UserBackendError.self) {
      try CredentialValidation.validate(
        .email("ada@example.com", password: "a" + Self.marks), forSignUp: true)
    }
  }
}
