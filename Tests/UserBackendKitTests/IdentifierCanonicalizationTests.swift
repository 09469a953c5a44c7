import Testing
import UserBackendKit

@Suite("IdentifierCanonicalization: the one canonical form", .timeLimit(.minutes(1)))
struct IdentifierCanonicalizationTests {
  @Test(arguments: [
    ("user@b\u{FC}cher.example", "user@xn--bcher-kva.example"),
    (" User@B\u{DC}CHER.Example ", "user@xn--bcher-kva.example"),
    ("user@bu\u{308}cher.example", "user@xn--bcher-kva.example"),
    ("user@XN--BCHER-KVA.example", "user@xn--bcher-kva.example"),
    ("\u{C9}mile@example.com", "\u{E9}mile@example.com"),
    ("E\u{301}mile@example.com", "\u{E9}mile@example.com"),
    ("user@\u{4F8B}\u{3048}.\u{30C6}\u{30B9}\u{30C8}", "user@xn--r8jz45g.xn--zckzah"),
    ("user@m\u{FC}nchen.de", "user@xn--mnchen-3ya.de"),
  ])
  func emailCanonicalForm(input: String, expected: String) throws {
    #expect(try IdentifierCanonicalization.email(input) == expected)
    #expect(try CredentialValidation.validateEmail(input) == expected)
    #expect(CredentialValidation.canonicalEmail(input) == expected)
  }

  @Test(arguments: [
    "a\u{0}@example.com", "a@exam\u{0}ple.com", "a\u{202E}@example.com", "a@b\u{200B}.example",
    "user@\u{2615}\u{301}.example", "no-at-sign", "a@b@c", "@example.com", "a@", "a b@example.com",
  ])
  func refusedEmails(input: String) {
    #expect(throws: UserBackendError(.invalidEmail)) { try IdentifierCanonicalization.email(input) }
  }

  @Test func userNamesAreNFCAndKeepTheirCase() throws {
    #expect(try IdentifierCanonicalization.username(" e\u{301}mile ") == "\u{E9}mile")
    #expect(try IdentifierCanonicalization.username("\u{C9}mile") == "\u{C9}mile")
    for refused in ["a\u{0}b", "a\u{1B}[2Jb", "a\u{200D}b", "\u{FEFF}ab", "  "] {
      #expect(throws: UserBackendError.self) { try IdentifierCanonicalization.username(refused) }
    }
  }

  @Test(arguments: [
    "+819012345678", "+81312345678", "+15551234567", "+442079460018", "+447911123456",
    "+33612345678", "+4930123456", "+390612345678", "+393123456789", "+821012345678",
    "+8613812345678", "+919876543210", "+23456789",
  ])
  func validPhoneNumbers(number: String) throws {
    #expect(try IdentifierCanonicalization.phoneNumber(number) == number)
  }

  @Test(arguments: [
    ("+8109012345678", "trunk prefix 0"), ("+4407911123456", "trunk prefix 0"),
    ("+330612345678", "trunk prefix 0"), ("+8201012345678", "trunk prefix 0"),
    ("+11555123456", "trunk prefix 1"), ("+81901234567890", "9 to 10 digits"),
    ("+1555123456", "10 digits"), ("+3361234567", "9 digits"),
  ])
  func refusedPhoneNumbersSayWhy(number: String, reason: String) {
    let error = #expect(throws: UserBackendError.self) {
      try IdentifierCanonicalization.phoneNumber(number)
    }
    guard case .invalidInput(let field, let message)? = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "phoneNumber")
    #expect(message.contains(reason), "\(message)")
  }
}
