import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// The account-management operations over canned NCMB answers.
@Suite("NCMB account management", .timeLimit(.minutes(1)))
struct NCMBAccountTests {
  static let updated = #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#

  /// A store holding a signed-in email account created by this adapter
  /// (`userName == mailAddress`).
  static func emailStore() -> InMemorySessionStore {
    InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(
            id: "epaKcaYZqsREdSMY", email: "alice@example.com", username: "alice@example.com",
            providers: ["password"]),
          bearerToken: Fixture.sessionToken, refreshToken: nil, expiresAt: nil,
          isNewUser: false)))
  }

  /// A store holding a signed-in anonymous user.
  static func guestStore() -> InMemorySessionStore {
    InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(
            id: "anon1", username: "ljmuJgf4ri", providers: ["anonymous"], isAnonymous: true),
          bearerToken: Fixture.sessionToken, refreshToken: nil, expiresAt: nil,
          isNewUser: true)))
  }

  @Test("reload maps mailAddressConfirm, createDate and the custom profile fields")
  func reloadDecodes() async throws {
    let transport = StubTransport([
      Fixture.response(
        200,
        #"{"objectId":"epaKcaYZqsREdSMY","userName":"alice","mailAddress":"a@example.com","#
          + #""mailAddressConfirm":true,"createDate":"2013-08-28T11:27:16.446Z","#
          + #""updateDate":"2013-08-28T11:27:16.446Z","authData":null,"displayName":"Alice","#
          + #""photoURL":"https://e.example/a.png","acl":{"*":{"read":true}}}"#)
    ])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    let user = try await backend.reload()
    #expect(user.emailVerified == true)
    #expect(user.email == "a@example.com")
    #expect(user.displayName == "Alice")
    #expect(user.photoURL == URL(string: "https://e.example/a.png"))
    #expect(
      user.createdAt
        == (try Date.ISO8601FormatStyle(includingFractionalSeconds: true)
          .parse("2013-08-28T11:27:16.446Z")))
    #expect(user.lastSignInAt == nil)
    #expect(try await store.load().session?.user == user)
    #expect(try await store.load().session?.bearerToken == Fixture.sessionToken)
  }

  @Test(
    "reload: an unreadable createDate or profile field of another type is nil, not an error",
    arguments: [
      #""createDate":"yesterday""#, #""displayName":42"#, #""photoURL":{"a":1}"#,
      #""mailAddressConfirm":"yes""#,
    ])
  func reloadLenient(_ field: String) async throws {
    let transport = StubTransport([
      Fixture.response(200, #"{"objectId":"epaKcaYZqsREdSMY","userName":"alice",\#(field)}"#)
    ])
    let backend = try Fixture.backend(transport, store: Fixture.signedInStore())
    let user = try await backend.reload()
    #expect(user.createdAt == nil && user.displayName == nil && user.photoURL == nil)
    #expect(user.emailVerified == nil)
  }

  @Test("reload answered for another objectId is malformedResponse; the stored user stays")
  func reloadOtherUser() async throws {
    let transport = StubTransport([
      Fixture.response(200, #"{"objectId":"someoneElse","userName":"bob"}"#)
    ])
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) { _ = try await backend.reload() }
    #expect(error.code.name == "malformedResponse")
    #expect(try await store.load() == before)
  }

  @Test("a password change keeps the session token; a restart sees the same session")
  func passwordKeepsToken() async throws {
    let transport = StubTransport([Fixture.response(200, Self.updated)])
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try Fixture.backend(transport, store: store)
    try await backend.updatePassword("n3w-password")
    #expect(try await store.load() == before)
    let restarted = try Fixture.backend(StubTransport(), store: store)
    #expect(try await restarted.idToken() == Fixture.sessionToken)
  }

  @Test("an email change of an email account changes userName too; the user is stored")
  func emailChangeRenames() async throws {
    let transport = StubTransport([Fixture.response(200, Self.updated)])
    let store = Self.emailStore()
    let backend = try Fixture.backend(transport, store: store)
    let user = try await backend.updateEmail(" Bob@Example.COM ")
    #expect(user.email == "bob@example.com" && user.username == "bob@example.com")
    #expect(user.emailVerified == nil)
    #expect(try await store.load().session?.user == user)
    let request = try #require(transport.requests.first)
    #expect(
      String(decoding: request.body, as: UTF8.self)
        == #"{"mailAddress":"bob@example.com","userName":"bob@example.com"}"#)
  }

  @Test(
    "account-change answers map to the port's codes; a rejected session is cleared",
    arguments: [
      (409, "E409001", "mailAddress is duplication.", "accountAlreadyExists", true),
      (401, "E401001", "Authentication error by header incorrect.", "sessionExpired", false),
      (404, "E404001", "No data available.", "sessionExpired", false),
    ])
  func mapping(_ status: Int, _ code: String, _ text: String, _ expected: String, _ kept: Bool)
    async throws
  {
    for operation in ["email", "password", "profile"] {
      let transport = StubTransport([
        Fixture.response(status, #"{"code":"\#(code)","error":"\#(text)"}"#)
      ])
      let store = Self.emailStore()
      let before = try await store.load()
      let backend = try Fixture.backend(transport, store: store)
      let error = try await #require(throws: UserBackendError.self) {
        switch operation {
        case "email": _ = try await backend.updateEmail("bob@example.com")
        case "password": try await backend.updatePassword("n3w-password")
        default: _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
        }
      }
      #expect(error.code.name == expected, "\(operation)")
      #expect(try await store.load() == (kept ? before : PersistedAuthState()), "\(operation)")
    }
  }

  @Test("reauthenticate as the signed-in user replaces the session token")
  func reauthenticateSame() async throws {
    let transport = StubTransport([
      Fixture.response(
        200,
        #"{"objectId":"epaKcaYZqsREdSMY","userName":"alice","sessionToken":"new-token-0002","#
          + #""mailAddressConfirm":false}"#)
    ])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    let session = try await backend.reauthenticate(.username("alice", password: "secret1"))
    #expect(session.bearerToken == "new-token-0002" && !session.isNewUser)
    #expect(session.user.id == "epaKcaYZqsREdSMY" && session.user.providers == ["password"])
    #expect(try await store.load().session == session)
  }

  @Test("reauthenticate with another account's credential is userMismatch; nothing changes")
  func reauthenticateOther() async throws {
    let transport = StubTransport([
      Fixture.response(
        200, #"{"objectId":"someoneElse","userName":"bob","sessionToken":"bob-token-01"}"#)
    ])
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.reauthenticate(.username("bob", password: "secret1"))
    }
    #expect(error.code == .userMismatch)
    #expect(try await store.load() == before)
  }

  @Test("reauthenticate with a wrong password is invalidCredentials; the session stays")
  func reauthenticateWrong() async throws {
    let transport = StubTransport([
      Fixture.response(
        401, #"{"code":"E401002","error":"Authentication error with ID/PASS incorrect."}"#)
    ])
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.reauthenticate(.username("alice", password: "wrong1"))
    }
    #expect(error.code == .invalidCredentials)
    #expect(try await store.load() == before)
  }

  @Test("linkPassword upgrades the guest with PUT users/{objectId}; same ID and token")
  func linkGuest() async throws {
    let transport = StubTransport([Fixture.response(200, Self.updated)])
    let store = Self.guestStore()
    let backend = try Fixture.backend(transport, store: store)
    let session = try await backend.linkPassword(.email(" G@Example.com ", password: "secret1"))
    #expect(session.user.id == "anon1" && !session.user.isAnonymous && !session.isNewUser)
    #expect(session.user.providers == ["password"])
    #expect(session.user.email == "g@example.com" && session.user.username == "g@example.com")
    #expect(session.bearerToken == Fixture.sessionToken)
    #expect(try await store.load().session == session)
    let request = try #require(transport.requests.first)
    #expect(request.method == .put)
    #expect(request.url.path == "/2013-09-01/users/anon1")
    #expect(request.headerFields["X-NCMB-Apps-Session-Token"] == Fixture.sessionToken)
    #expect(
      String(decoding: request.body, as: UTF8.self)
        == #"{"mailAddress":"g@example.com","password":"secret1","userName":"g@example.com"}"#)
  }

  @Test("linkPassword: a taken identifier is accountAlreadyExists and the guest stays")
  func linkTaken() async throws {
    let transport = StubTransport([
      Fixture.response(409, #"{"code":"E409001","error":"userName is duplication."}"#)
    ])
    let store = Self.guestStore()
    let before = try await store.load()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.linkPassword(.username("taken", password: "secret1"))
    }
    #expect(error.code == .accountAlreadyExists)
    #expect(try await store.load() == before)
  }

  @Test("linkPassword on a user that is not anonymous is invalidInput(credential), no request")
  func linkNotGuest() async throws {
    let transport = StubTransport()
    let backend = try Fixture.backend(transport, store: Fixture.signedInStore())
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.linkPassword(.username("alice2", password: "secret1"))
    }
    #expect(error.code.name == "invalidInput")
    if case .invalidInput(let field, _) = error.code { #expect(field == "credential") }
    #expect(transport.requests.isEmpty)
  }

  @Test("operations the service has no API for are unsupported, naming the capability")
  func unsupported() async throws {
    let transport = StubTransport()
    let backend = try Fixture.backend(transport, store: Fixture.signedInStore())
    await #expect(throws: UserBackendError(.unsupported(capability: .emailVerification))) {
      try await backend.sendEmailVerification()
    }
    await #expect(throws: UserBackendError(.unsupported(capability: .emailVerification))) {
      try await backend.applyEmailVerification(code: "c")
    }
    await #expect(throws: UserBackendError(.unsupported(capability: .passwordResetCompletion))) {
      try await backend.confirmPasswordReset(code: "c", newPassword: "n3w-password")
    }
    #expect(transport.requests.isEmpty)
  }

  @Test(
    "every claimed account capability is reached through any UserBackend",
    arguments: [
      Capability.userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .reauthentication,
      .anonymousUpgrade,
    ])
  func dispatch(_ capability: Capability) async throws {
    let login =
      #"{"objectId":"anon1","userName":"x","sessionToken":"\#(Fixture.sessionToken)"}"#
    let transport = StubTransport([Fixture.response(200, login)])
    let backend: any UserBackend = try Fixture.backend(transport, store: Self.guestStore())
    #expect(backend.capabilities.contains(capability))
    do {
      switch capability {
      case .userReload: _ = try await backend.reload()
      case .profileUpdate: _ = try await backend.updateProfile(displayName: "A", photoURL: nil)
      case .passwordUpdate: try await backend.updatePassword("n3w-password")
      case .emailUpdate: _ = try await backend.updateEmail("a@example.com")
      case .reauthentication:
        _ = try await backend.reauthenticate(.username("x", password: "pw"))
      default: _ = try await backend.linkPassword(.username("guest1", password: "secret1"))
      }
    } catch {
      if case .unsupported = error.code { Issue.record("\(capability): \(error)") }
    }
    #expect(transport.requests.count == 1)
  }
}
