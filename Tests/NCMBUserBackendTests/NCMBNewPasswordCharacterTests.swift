import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// A new password with a control or standalone format character is refused on every NCMB
/// operation that sets one, before any request; sign-in still sends it.
@Suite("NCMB: new passwords with control characters are refused", .timeLimit(.minutes(1)))
struct NCMBNewPasswordCharacterTests {
  static let refused = [
    "pw-horse-99\r", "pw-horse-99\n", "\tpw-horse-99", "pw-horse-99\u{1B}[2J",
    "pw-horse\u{85}-99", "pw-horse-99\u{200B}", "pw-\u{202E}horse-99",
  ]

  enum Operation: String, CaseIterable, CustomTestStringConvertible {
    case signUpWithUserName, signUpWithMail, updatePassword, linkPassword
    var testDescription: String { rawValue }
  }

  @Test("refused before any request", arguments: Operation.allCases, refused)
  func refusedBeforeRequest(_ operation: Operation, password: String) async throws {
    let store: InMemorySessionStore
    switch operation {
    case .signUpWithUserName, .signUpWithMail: store = InMemorySessionStore()
    case .updatePassword: store = Fixture.signedInStore()
    case .linkPassword:
      store = InMemorySessionStore(
        PersistedAuthState(
          session: AuthSession(
            user: User(id: "epaKcaYZqsREdSMY", providers: ["anonymous"], isAnonymous: true),
            bearerToken: Fixture.sessionToken, refreshToken: nil, expiresAt: nil,
            isNewUser: false)))
    }
    let before = try await store.load()
    let transport = StubTransport(status: 200, json: Fixture.loginJSON)
    let backend = try Fixture.backend(transport, store: store)
    var failure: UserBackendError?
    do {
      switch operation {
      case .signUpWithUserName: _ = try await backend.signUp(.username("alice", password: password))
      case .signUpWithMail:
        _ = try await backend.signUp(.email("alice@example.com", password: password))
      case .updatePassword: try await backend.updatePassword(password)
      case .linkPassword: _ = try await backend.linkPassword(.username("alice", password: password))
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
    #expect(transport.requests.isEmpty, "\(transport.requests.count) request(s) sent")
    #expect(try await store.load() == before)
  }

  @Test("sign-in still sends such a password", arguments: refused)
  func existingPasswordIsSent(_ password: String) async throws {
    let transport = StubTransport(status: 200, json: Fixture.loginJSON)
    let backend = try Fixture.backend(transport)
    _ = try await backend.signIn(.username("alice", password: password))
    #expect(transport.requests.count == 1)
  }
}
