import Testing
import UserBackendKit

/// Passwords a line-based channel cannot carry, or that no one can see: each is refused
/// as a new password and still accepted as an existing one.
struct PasswordSample: Sendable, CustomTestStringConvertible {
  var name: String
  var value: String
  var testDescription: String { name }

  static let refusedAsNew: [PasswordSample] = [
    PasswordSample(name: "trailing CR", value: "pw-horse-99\r"),
    PasswordSample(name: "trailing LF", value: "pw-horse-99\n"),
    PasswordSample(name: "CR LF inside", value: "pw-horse\r\n-99"),
    PasswordSample(name: "leading TAB", value: "\tpw-horse-99"),
    PasswordSample(name: "ESC sequence", value: "pw-horse-99\u{1B}[2J"),
    PasswordSample(name: "NUL", value: "pw-horse\u{0}-99"),
    PasswordSample(name: "DEL", value: "pw-horse\u{7F}-99"),
    PasswordSample(name: "C1 NEL", value: "pw-horse\u{85}-99"),
    PasswordSample(name: "C1 CSI", value: "pw-horse\u{9B}2J"),
    PasswordSample(name: "zero-width space", value: "pw-horse-99\u{200B}"),
    PasswordSample(name: "right-to-left override", value: "pw-\u{202E}horse-99"),
    PasswordSample(name: "byte order mark", value: "\u{FEFF}pw-horse-99"),
    PasswordSample(name: "soft hyphen", value: "pw-hor\u{AD}se-99"),
    PasswordSample(name: "word joiner", value: "pw-horse\u{2060}-99"),
    PasswordSample(name: "leading zero-width joiner", value: "\u{200D}pw-horse-99"),
    PasswordSample(name: "line separator", value: "pw-horse\u{2028}-99"),
    PasswordSample(name: "paragraph separator", value: "pw-horse\u{2029}-99"),
  ]

  /// Visible text that uses joiners and tags inside a character: accepted.
  static let acceptedAsNew: [PasswordSample] = [
    PasswordSample(name: "spaces", value: "correct horse battery staple"),
    PasswordSample(name: "accents", value: "pässwörd-é"),
    PasswordSample(
      name: "family emoji (ZWJ)", value: "pw-\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}-99"),
    PasswordSample(
      name: "rainbow flag (ZWJ, VS16)", value: "pw-\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}-99"),
    PasswordSample(
      name: "England flag (tags)",
      value: "pw-\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}-99"),
    PasswordSample(
      name: "Persian ZWNJ", value: "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0645}-99"),
    PasswordSample(name: "Devanagari ZWJ", value: "\u{0915}\u{094D}\u{200D}\u{0937}-horse-99"),
  ]
}

@Suite("New passwords refuse control and standalone format characters", .timeLimit(.minutes(1)))
struct NewPasswordCharacterTests {
  func refusal(_ body: () throws(UserBackendError) -> Void) -> UserBackendError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  func expectPasswordRefusal(_ error: UserBackendError?, _ sample: PasswordSample) {
    guard case .invalidInput(let field, let reason)? = error?.code else {
      Issue.record("expected invalidInput(password), got \(String(describing: error))")
      return
    }
    #expect(field == "password")
    #expect(!reason.contains(sample.value), "the password is echoed")
    let message = error.map { "\($0.message)" } ?? ""
    #expect(!message.contains(sample.value), "the password is echoed")
  }

  @Test("sign-up, change and reset refuse it", arguments: PasswordSample.refusedAsNew)
  func refusedAsNew(_ sample: PasswordSample) {
    expectPasswordRefusal(
      refusal { () throws(UserBackendError) in
        try CredentialValidation.validateNewPassword(sample.value)
      },
      sample)
    expectPasswordRefusal(
      refusal { () throws(UserBackendError) in
        try CredentialValidation.validatePasswordChange(sample.value)
      },
      sample)
    expectPasswordRefusal(
      refusal { () throws(UserBackendError) in
        _ = try CredentialValidation.validate(
          .email("ann@example.com", password: sample.value), forSignUp: true)
      }, sample)
  }

  @Test(
    "sign-in accepts it: an existing account may have one", arguments: PasswordSample.refusedAsNew)
  func acceptedAsExisting(_ sample: PasswordSample) throws {
    _ = try CredentialValidation.validate(
      .email("ann@example.com", password: sample.value), forSignUp: false)
  }

  @Test(
    "visible text with joiners inside a character is accepted",
    arguments: PasswordSample.acceptedAsNew)
  func acceptedAsNew(_ sample: PasswordSample) throws {
    try CredentialValidation.validateNewPassword(sample.value)
  }

  @Test("a short password with a control character is refused for the character, not strength")
  func characterBeforeStrength() {
    let error = refusal { () throws(UserBackendError) in
      try CredentialValidation.validateNewPassword("ab\r")
    }
    guard case .invalidInput(let field, _)? = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "password")
  }
}
