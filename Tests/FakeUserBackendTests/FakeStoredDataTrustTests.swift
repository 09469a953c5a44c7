import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase
@testable import FakeUserBackend

/// What the fake reads from its files is checked, never trusted: a time out of range in the
/// database is a typed server error (not a trap, not a date in year 506713), and the owner
/// of a document comes from the session's token as the store knows it, not from the user
/// ID the session file states.
@Suite("Fake: stored data is checked", .timeLimit(.minutes(1)))
struct FakeStoredDataTrustTests {
  private func failure(_ body: () async throws(UserBackendError) -> Void) async
    -> UserBackendError?
  {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }

  private func write(_ store: UserStore, _ sql: String) throws {
    _ = try store.locked { db in try db.run(sql) }
  }

  /// `true` for the fake's `DATABASE_ERROR` naming `field`.
  private func isDatabaseError(_ error: UserBackendError?, naming field: String) -> Bool {
    guard case .server(let status, let code, let message)? = error?.code else { return false }
    return status == 500 && code == "DATABASE_ERROR" && message?.contains(field) == true
  }

  /// Below the accepted range is damage as above it: never "wrong password".
  @Test(
    "a stored iteration count out of range is DATABASE_ERROR on sign-in, at both ends",
    arguments: ["0", "-1", "-9223372036854775808", "NULL", "4711000000"])
  func passwordIterationsOutOfRange(value: String) async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    try await fixture.backend.signOut()
    try write(fixture.store, "UPDATE users SET password_iterations = \(value)")
    let signIn = await failure { () async throws(UserBackendError) in
      _ = try await fixture.backend.signIn(.email("a@example.com", password: "secret1"))
    }
    #expect(
      isDatabaseError(signIn, naming: "users.password_iterations"), "\(String(describing: signIn))")
  }

  @Test(
    "a document time out of range is DATABASE_ERROR on get and set, and delete repairs",
    arguments: [
      "UPDATE documents SET update_time = -9223372036854775808",
      "UPDATE documents SET create_time = -9223372036854775807",
      #"UPDATE documents SET fields = '{"x":{"t":"-9223372036854775000"}}'"#,
      #"UPDATE documents SET fields = '{"x":{"t":"9223372036854775000"}}'"#,
    ])
  func documentTimes(sql: String) async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    let documents = fixture.backend.userDocuments
    _ = try await documents.updateDocument(setting: ["x": .integer(1)], removing: [])
    try write(fixture.store, sql)
    let field = sql.contains("fields") ? "\"x\"" : sql.contains("create") ? "create" : "update"
    let read = await failure { () async throws(UserBackendError) in
      _ = try await documents.document()
    }
    #expect(isDatabaseError(read, naming: field))
    let update = await failure { () async throws(UserBackendError) in
      _ = try await documents.updateDocument(setting: ["y": .integer(2)], removing: [])
    }
    #expect(isDatabaseError(update, naming: field))
    try await documents.deleteDocument(userID: nil)
    let fresh = try await documents.updateDocument(setting: ["y": .integer(2)], removing: [])
    #expect(fresh.fields == ["y": .integer(2)])
  }

  @Test(
    "an account time out of range is DATABASE_ERROR, not a date outside 0001…9999",
    arguments: [
      "UPDATE users SET created_at = 1e17", "UPDATE users SET created_at = 1e300",
      "UPDATE users SET last_sign_in_at = -1e13", "UPDATE users SET valid_since = 1e300",
    ])
  func accountTimes(sql: String) async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    try write(fixture.store, sql)
    let column = String(sql.split(separator: " ")[3])
    let reload = await failure { () async throws(UserBackendError) in
      _ = try await fixture.backend.reload()
    }
    #expect(isDatabaseError(reload, naming: "users.\(column)"))
    let signIn = await failure { () async throws(UserBackendError) in
      _ = try await fixture.restarted().signIn(.email("a@example.com", password: "secret1"))
    }
    #expect(isDatabaseError(signIn, naming: "users.\(column)"))
  }

  @Test("a session file naming another user's ID with alice's token reaches nobody's document")
  func ownerComesFromTheToken() async throws {
    let fixture = try Fixture()
    let bobBackend = FakeUserBackend(store: fixture.store, sessionStore: InMemorySessionStore())
    let alice = try await fixture.backend.signUp(.email("alice@example.com", password: "secret1"))
    let bob = try await bobBackend.signUp(.email("bob@example.com", password: "secret1"))
    _ = try await bobBackend.userDocuments.updateDocument(
      setting: ["secret": .string("bob's")], removing: [])

    // Edit the stored session: bob's user ID, alice's tokens. A broken session, not a
    // document matter: sessionExpired (INVALID_ID_TOKEN), and the session is cleared.
    let tampered = try await fixture.sessions.load()
    func expectBrokenSession(_ body: () async throws(UserBackendError) -> Void) async throws {
      var state = tampered
      var session = try #require(state.session)
      session.user.id = bob.user.id
      state.session = session
      try await fixture.sessions.save(state)
      let error = await failure(body)
      #expect(error?.code.name == "sessionExpired", "\(String(describing: error))")
      #expect(error?.backendCode == "INVALID_ID_TOKEN")
      #expect(try await fixture.sessions.load().session == nil)
    }
    let documents = fixture.restarted().userDocuments
    for userID in [nil, bob.user.id, alice.user.id] as [String?] {
      try await expectBrokenSession { () async throws(UserBackendError) in
        _ = try await documents.document(userID: userID)
      }
      try await expectBrokenSession { () async throws(UserBackendError) in
        _ = try await documents.updateDocument(
          userID: userID, setting: ["secret": .string("overwritten")], removing: [])
      }
      try await expectBrokenSession { () async throws(UserBackendError) in
        try await documents.deleteDocument(userID: userID)
      }
    }
    let bobsDocument = try #require(try await bobBackend.userDocuments.document())
    #expect(bobsDocument.fields["secret"] == .string("bob's"))
  }

  @Test("a session whose refresh token the store never issued is expired, not trusted")
  func unknownTokenExpiresTheSession() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("alice@example.com", password: "secret1"))
    var state = try await fixture.sessions.load()
    var session = try #require(state.session)
    session.refreshToken = "not-issued-by-this-store"
    state.session = session
    try await fixture.sessions.save(state)
    let read = await failure { () async throws(UserBackendError) in
      _ = try await fixture.restarted().userDocuments.document()
    }
    #expect(read?.code.name == "sessionExpired")
    #expect(try await fixture.sessions.load().session == nil)
  }
}

/// The account operations take the caller from the token too: an edited session file
/// cannot change, re-password or delete another user's account.
@Suite("Fake: account operations act for the token's user", .timeLimit(.minutes(1)))
struct FakeCallerFromTokenTests {
  @Test("a session file naming bob with alice's token cannot touch bob's account")
  func accountOperations() async throws {
    let fixture = try Fixture()
    let bobBackend = FakeUserBackend(store: fixture.store, sessionStore: InMemorySessionStore())
    _ = try await fixture.backend.signUp(.email("alice@example.com", password: "secret1"))
    let bob = try await bobBackend.signUp(.email("bob@example.com", password: "secret1"))
    let original = try await fixture.sessions.load()

    let tampered = fixture.restarted()
    // Each operation meets the edited file (bob's user ID, alice's tokens): a session
    // error (never the document owner rule's permissionDenied), and the file is cleared.
    func code(_ body: () async throws(UserBackendError) -> Void) async throws -> String? {
      var state = original
      var session = try #require(state.session)
      session.user.id = bob.user.id
      state.session = session
      try await fixture.sessions.save(state)
      do {
        try await body()
        return nil
      } catch {
        #expect(error.backendCode == "INVALID_ID_TOKEN")
        #expect(try await fixture.sessions.load().session == nil)
        return error.code.name
      }
    }
    #expect(
      try await code { () async throws(UserBackendError) in
        _ = try await tampered.updateProfile(displayName: "pwned", photoURL: nil)
      } == "sessionExpired")
    #expect(
      try await code { () async throws(UserBackendError) in
        try await tampered.updatePassword("another1")
      } == "sessionExpired")
    #expect(
      try await code { () async throws(UserBackendError) in
        try await tampered.deleteAccount()
      } == "sessionExpired")
    #expect(
      try await code { () async throws(UserBackendError) in
        _ = try await tampered.reload()
      } == "sessionExpired")
    let stillBob = try #require(try fixture.store.user(id: bob.user.id))
    #expect(stillBob.displayName == nil)
    #expect(try fixture.store.verifyPassword("secret1", userID: bob.user.id))
  }
}
