import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Attack round 6, L7: an `accounts:lookup` answer listing only another user's record
/// signed the user out (`sessionExpired`), where every other answer naming another user is
/// `.malformedResponse` and keeps the session. Only an answer with no record at all (or
/// the server's own `USER_NOT_FOUND` / `USER_DISABLED`) means the account is gone.
@Suite("Firebase reload: an answer for another user keeps the session", .timeLimit(.minutes(1)))
struct ReloadAnswerOwnerTests {
  @Test(
    "records of other accounts are a malformed answer",
    arguments: [
      #"{"users":[{"localId":"uid-2","email":"eve@example.com"}]}"#,
      #"{"users":[{"localId":"uid-2"},{"localId":"uid-3"}]}"#,
    ])
  func anotherUsersRecord(answer: String) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(StubTransport(json: answer), store: store, clock: clock)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.reload()
    }
    guard case .malformedResponse(let reason) = error.code else {
      Issue.record("expected malformedResponse, got \(error.code.name)")
      return
    }
    #expect(reason.contains("another user"))
    #expect(try await store.load() == before)
  }

  @Test(
    "an answer without any record still ends the session",
    arguments: [#"{"users":[]}"#, #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#])
  func noRecord(answer: String) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(StubTransport(json: answer), store: store, clock: clock)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.reload()
    }
    #expect(error.code == .sessionExpired)
    #expect(try await store.load().session == nil)
  }
}
