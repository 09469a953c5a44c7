import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// A new password with a control or standalone format character is refused on every
/// Firebase operation that sets one, before any request; sign-in still sends it.
@Suite("Firebase: new passwords with control characters are refused", .timeLimit(.minutes(1)))
struct NewPasswordCharacterTests {
  static let refused = [
    "pw-horse-99\r", "pw-horse-99\n", "\tpw-horse-99", "pw-horse-99\u{1B}[2J",
    "pw-horse\u{85}-99", "pw-horse-99\u{200B}", "pw-\u{202E}horse-99",
  ]

  enum Operation: String, CaseIterable, CustomTestStringConvertible {
    case signUp, updatePassword, confirmPasswordReset, linkPassword
    var testDescription: String { rawValue }
  }

  @Test("refused before any request", arguments: Operation.allCases, refused)
  func refusedBeforeRequest(_ operation: Operation, password: String) async throws {
    let clock = ManualClock(Fixture.start)
    let store: InMemorySessionStore
    switch operation {
    case .signUp, .confirmPasswordReset: store = InMemorySessionStore()
    case .updatePassword: store = Fixture.signedInStore(clock: clock)
    case .linkPassword:
      var guest = Fixture.session(expiresAt: clock.now().addingTimeInterval(3600))
      guest.user = User(id: "uid-1", providers: ["anonymous"], isAnonymous: true)
      store = InMemorySessionStore(PersistedAuthState(session: guest))
    }
    let before = try await store.load()
    let transport = Fixture.server(clock: clock)
    let backend = try Fixture.backend(transport, store: store, clock: clock)
    var failure: UserBackendError?
    do {
      switch operation {
      case .signUp: _ = try await backend.signUp(.email("ann@example.com", password: password))
      case .updatePassword: try await backend.updatePassword(password)
      case .confirmPasswordReset:
        try await backend.confirmPasswordReset(code: "oob-code-1", newPassword: password)
      case .linkPassword:
        _ = try await backend.linkPassword(.email("ann@example.com", password: password))
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
    #expect(
      transport.requests.isEmpty, "a request was sent: \(transport.requests.map(\.operation))")
    #expect(try await store.load() == before)
  }

  @Test("sign-in and reauthentication still send such a password", arguments: refused)
  func existingPasswordIsSent(_ password: String) async throws {
    let clock = ManualClock(Fixture.start)
    let transport = Fixture.server(clock: clock)
    let backend = try Fixture.backend(transport, clock: clock)
    _ = try await backend.signIn(.email("alice@example.com", password: password))
    _ = try await backend.reauthenticate(.email("alice@example.com", password: password))
    #expect(
      transport.requests.map(\.operation).filter { $0 == "accounts:signInWithPassword" }.count == 2)
  }
}
