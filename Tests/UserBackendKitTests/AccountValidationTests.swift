import Foundation
import Testing
import UserBackendKit

/// The input checks of the account-management operations every backend shares.
@Suite("account-management input validation", .timeLimit(.minutes(1)))
struct AccountValidationTests {
  /// `ok:<change>` or `field` of the invalidInput.
  static func outcome(_ body: () throws(UserBackendError) -> ProfileFieldChange) -> String {
    do {
      switch try body() {
      case .keep: return "keep"
      case .remove: return "remove"
      case .set(let value): return "set:\(value)"
      }
    } catch {
      if case .invalidInput(let field, _) = error.code { return "invalid:\(field)" }
      return error.code.name
    }
  }

  @Test(
    "display names: nil keeps, empty removes, bad ones name the field",
    arguments: [
      (String?.none, "keep"), ("", "remove"), ("Ada", "set:Ada"), (" Ada ", "set: Ada "),
      ("   ", "invalid:displayName"), ("A\u{0}da", "invalid:displayName"),
      ("A\u{202E}da", "invalid:displayName"),
      (String(repeating: "a", count: 257), "invalid:displayName"),
      (String(repeating: "a", count: 256), "set:" + String(repeating: "a", count: 256)),
    ])
  func displayNames(_ input: String?, _ expected: String) {
    #expect(
      Self.outcome { () throws(UserBackendError) in
        try CredentialValidation.validateDisplayName(input)
      } == expected)
  }

  @Test(
    "photo URLs: absolute http(s) only, else invalidInput(photoURL)",
    arguments: [
      (String?.none, "keep"), ("", "remove"),
      ("https://example.com/a.png", "set:https://example.com/a.png"),
      ("HTTP://example.com/a.png", "set:HTTP://example.com/a.png"),
      ("ftp://example.com/a.png", "invalid:photoURL"), ("/a.png", "invalid:photoURL"),
      ("example.com/a.png", "invalid:photoURL"), ("https://", "invalid:photoURL"),
      ("https://exa mple.com/", "invalid:photoURL"), ("javascript:alert(1)", "invalid:photoURL"),
      ("https://example.com/\u{0}", "invalid:photoURL"),
      ("https://example.com/" + String(repeating: "a", count: 2100), "invalid:photoURL"),
      // Attack round 6, L2: credentials and unusable ports were stored and shown to all.
      ("http://user:pass@example.com/x.png", "invalid:photoURL"),
      ("https://user@example.com/x.png", "invalid:photoURL"),
      ("https://example.com:99999/x", "invalid:photoURL"),
      ("https://example.com:0/x", "invalid:photoURL"),
      ("https://example.com:8443/x", "set:https://example.com:8443/x"),
    ])
  func photoURLs(_ input: String?, _ expected: String) {
    #expect(
      Self.outcome { () throws(UserBackendError) in
        try CredentialValidation.validatePhotoURL(input)
      } == expected)
  }

  @Test("a profile update checks the display name before the photo URL")
  func profileOrder() {
    #expect(
      throws: UserBackendError(
        .invalidInput(field: "displayName", reason: "must not contain control or format characters")
      )
    ) {
      try CredentialValidation.validateProfileUpdate(displayName: "\u{1B}", photoURL: "nope")
    }
    let update = try? CredentialValidation.validateProfileUpdate(displayName: nil, photoURL: "")
    #expect(update == ProfileUpdate(displayName: .keep, photoURL: .remove))
  }

  @Test(
    "out-of-band codes: trimmed, non-empty, visible ASCII; the message never has the code",
    arguments: [
      ("  abc-DEF_123  ", "abc-DEF_123"), ("", "invalid"), ("   ", "invalid"),
      ("ab c", "invalid"), ("abc\u{7}", "invalid"), ("cödé", "invalid"),
      (String(repeating: "x", count: 513), "invalid"),
    ])
  func codes(_ input: String, _ expected: String) {
    do {
      #expect(try CredentialValidation.validateOutOfBandCode(input) == expected)
    } catch {
      #expect(expected == "invalid")
      guard case .invalidInput(let field, _) = error.code else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(field == "code")
      if input.count > 3 { #expect(!error.message.contains(input)) }
    }
  }

  @Test("new passwords and emails follow the sign-up rules")
  func passwordAndEmail() throws {
    #expect(throws: UserBackendError(.weakPassword(minimumLength: 6))) {
      try CredentialValidation.validatePasswordChange("12345")
    }
    #expect(throws: UserBackendError(.invalidInput(field: "password", reason: "must not be empty")))
    {
      try CredentialValidation.validatePasswordChange("")
    }
    #expect(try CredentialValidation.validateEmailChange(" New@Example.COM ") == "new@example.com")
    #expect(throws: UserBackendError(.invalidEmail)) {
      try CredentialValidation.validateEmailChange("no-at-sign")
    }
  }
}
