import AccountDatabase
import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// A new password with a control or standalone format character is refused by the fake on
/// every operation that sets one, before its store is touched; sign-in still takes one.
@Suite("Fake: new passwords with control characters are refused", .timeLimit(.minutes(1)))
struct FakeNewPasswordCharacterTests {
  static let refused = [
    "pw-horse-99\r", "pw-horse-99\n", "\tpw-horse-99", "pw-horse-99\u{1B}[2J",
    "pw-horse\u{85}-99", "pw-horse-99\u{200B}", "pw-\u{202E}horse-99",
  ]

  enum Operation: String, CaseIterable, CustomTestStringConvertible {
    case signUp, updatePassword, confirmPasswordReset, linkPassword
    var testDescription: String { rawValue }
  }

  @Test("refused before the store is touched", arguments: Operation.allCases, refused)
  func refusedBeforeStore(_ operation: Operation, password: String) async throws {
    let fixture = try Fixture()
    let backend = fixture.backend
    switch operation {
    case .signUp, .confirmPasswordReset: break
    case .updatePassword:
      _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
    case .linkPassword: _ = try await backend.signInAnonymously()
    }
    let users = try fixture.store.userCount()
    let before = try await fixture.sessions.load()
    var failure: UserBackendError?
    do {
      switch operation {
      case .signUp: _ = try await backend.signUp(.email("bob@example.com", password: password))
      case .updatePassword: try await backend.updatePassword(password)
      case .confirmPasswordReset:
        try await backend.confirmPasswordReset(code: "reset-code-1", newPassword: password)
      case .linkPassword:
        _ = try await backend.linkPassword(.email("bob@example.com", password: password))
      }
    } catch {
      failure = error
    }
    guard case .invalidInput(let field, let reason)? = failure?.code else {
      Issue.record("expected invalidInput(password), got \(String(describing: failure))")
      return
    }
    #expect(field == "password")
    #expect(!reason.contains(password))
    #expect(try fixture.store.userCount() == users)
    #expect(try await fixture.sessions.load() == before)
    if operation == .updatePassword {
      _ = try await backend.signIn(.email("ann@example.com", password: "secret1"))
    }
  }
}
