import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Password requirements are reported as the server lists them", .timeLimit(.minutes(1)))
struct PasswordRequirementTests {
  private let signUpContext = FirebaseErrorContext(
    operation: "accounts:signUp", capability: .emailPassword)

  private func map(_ message: String) -> UserBackendError {
    FirebaseErrorMapper.error(
      for: StubTransport.json(400, Fixture.errorBody(message)), context: signUpContext)
  }

  @Test("a maximum is a maximum: never turned into a minimum")
  func maximumOnly() throws {
    let error = map(
      "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: "
        + "[Password may contain at most 25 characters]")
    let requirements = try #require(error.passwordRequirements)
    #expect(requirements.maximumLength == 25)
    #expect(requirements.minimumLength == nil)
    guard case .weakPassword(let minimum) = error.code else {
      Issue.record("expected weakPassword, got \(error.code)")
      return
    }
    #expect(minimum != 25)
    #expect(error.message.contains("at most 25 characters"))
    #expect(!error.message.contains("at least 25"))
    #expect(requirements.summary.contains("at most 25 characters"))
    #expect(!requirements.summary.contains("at least"))
  }

  @Test("every kind of requirement in one list")
  func everyKind() throws {
    let error = map(
      "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must "
        + "contain at least 12 characters, Password may contain at most 40 characters, Password "
        + "must contain a lower case character, Password must contain an upper case character, "
        + "Password must contain a numeric character, Password must contain a non-alphanumeric "
        + "character]")
    let requirements = try #require(error.passwordRequirements)
    #expect(requirements.minimumLength == 12)
    #expect(requirements.maximumLength == 40)
    #expect(
      requirements.characterClasses == [.lowercase, .uppercase, .digit, .nonAlphanumeric])
    #expect(requirements.unrecognized.isEmpty)
    #expect(error.code == .weakPassword(minimumLength: 12))
  }

  @Test("character classes only: no length is reported")
  func classesOnly() throws {
    let error = map(
      "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must "
        + "contain an upper case character, Password must contain a numeric character, "
        + "Password must contain a non-alphanumeric character]")
    let requirements = try #require(error.passwordRequirements)
    #expect(requirements.minimumLength == nil)
    #expect(requirements.maximumLength == nil)
    #expect(requirements.characterClasses == [.uppercase, .digit, .nonAlphanumeric])
    #expect(!requirements.summary.contains("characters long"))
    #expect(requirements.summary.contains("an upper case letter"))
  }

  @Test("a requirement this version does not know is kept word for word")
  func unknownRequirement() throws {
    let error = map(
      "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: "
        + "[Password must not contain the user name]")
    let requirements = try #require(error.passwordRequirements)
    #expect(requirements.unrecognized == ["Password must not contain the user name"])
    #expect(requirements.summary.contains("Password must not contain the user name"))
  }

  @Test(
    "WEAK_PASSWORD reports the stated minimum, or none at all",
    arguments: [
      ("WEAK_PASSWORD : Password should be at least 8 characters", 8 as Int?),
      ("WEAK_PASSWORD : Password should be at least 6 characters", 6),
      ("WEAK_PASSWORD : Use at most 20 characters", nil),
      ("WEAK_PASSWORD", nil),
    ])
  func weakPassword(message: String, minimum: Int?) {
    let error = map(message)
    #expect(error.passwordRequirements?.minimumLength == minimum)
    #expect(error.passwordRequirements?.maximumLength == nil || minimum == nil)
  }
}
