import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// The account-management operations over canned Firebase answers: decoding, error
/// mapping, and what each one does to the stored session.
@Suite("Firebase account management", .timeLimit(.minutes(1)))
struct AccountManagementTests {
  /// A backend signed in as `uid-1` (password user) over `transport`.
  static func signedIn(_ transport: StubTransport, clock: ManualClock = ManualClock(Fixture.start))
    throws -> (FirebaseUserBackend, InMemorySessionStore)
  {
    let store = Fixture.signedInStore(clock: clock)
    return (try Fixture.backend(transport, store: store, clock: clock), store)
  }

  /// A lookup answer with one user whose extra fields are `fields` (JSON members).
  static func lookup(_ fields: String) -> String {
    #"{"users":[{"localId":"uid-1","email":"alice@example.com","# + fields + "}]}"
  }

  @Test("reload decodes emailVerified, photoUrl, createdAt and lastLoginAt (strings or numbers)")
  func reloadDecodes() async throws {
    for (created, lastLogin) in [
      (#""1767225000000""#, #""1767225600123""#), ("1767225000000", "1767225600123"),
    ] {
      let server = StubTransport(
        json: Self.lookup(
          #""emailVerified":true,"photoUrl":"https://e.example/a.png","displayName":"Alice","#
            + #""createdAt":\#(created),"lastLoginAt":\#(lastLogin),"passwordUpdatedAt":1.7e12"#))
      let (backend, store) = try Self.signedIn(server)
      let user = try await backend.reload()
      #expect(user.emailVerified == true)
      #expect(user.photoURL == URL(string: "https://e.example/a.png"))
      #expect(user.displayName == "Alice")
      #expect(user.createdAt == Date(timeIntervalSince1970: 1_767_225_000))
      #expect(user.lastSignInAt == Date(timeIntervalSince1970: 1_767_225_600.123))
      #expect(try await store.load().session?.user == user)
    }
  }

  @Test("reload: absent fields are nil; a photoUrl that is not a URL is nil")
  func reloadAbsent() async throws {
    let server = StubTransport(json: Self.lookup(#""photoUrl":"""#))
    let (backend, _) = try Self.signedIn(server)
    let user = try await backend.reload()
    #expect(user.emailVerified == nil && user.photoURL == nil)
    #expect(user.createdAt == nil && user.lastSignInAt == nil)
  }

  @Test(
    "reload: a createdAt or lastLoginAt that is not milliseconds is malformedResponse; the stored user stays",
    arguments: [
      #""createdAt":"yesterday""#, #""createdAt":"-5""#, #""lastLoginAt":"1e400""#,
      #""lastLoginAt":true"#, #""createdAt":"99999999999999999""#,
    ])
  func reloadBadTimes(_ field: String) async throws {
    let server = StubTransport(json: Self.lookup(field))
    let (backend, store) = try Self.signedIn(server)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) { _ = try await backend.reload() }
    guard case .malformedResponse(let reason) = error.code else {
      Issue.record("expected malformedResponse, got \(error)")
      return
    }
    #expect(reason.hasSuffix(field.contains("createdAt") ? "createdAt" : "lastLoginAt"))
    #expect(try await store.load() == before)
  }

  @Test("a password change stores the new tokens; a restart sees them")
  func passwordRotation() async throws {
    let clock = ManualClock(Fixture.start)
    let newToken = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 7)
    let server = StubTransport(
      json: #"{"localId":"uid-1","email":"alice@example.com","idToken":"\#(newToken)","#
        + #""refreshToken":"AMf-rotated","expiresIn":"3600"}"#)
    let (backend, store) = try Self.signedIn(server, clock: clock)
    let events = EventRecorder(backend.authStateChanges)
    _ = await events.events(atLeast: 1)
    try await backend.updatePassword("n3w-password")
    let restarted = try Fixture.backend(StubTransport(json: "{}"), store: store, clock: clock)
    #expect(try await restarted.idToken() == newToken)
    #expect(try await store.load().session?.refreshToken == "AMf-rotated")
    #expect(await events.events(atLeast: 2) == [.initialState, .tokenRefreshed])
  }

  @Test(
    "a sensitive change refused as too old is requiresRecentLogin; the session stays",
    arguments: ["password", "email"])
  func requiresRecentLogin(_ operation: String) async throws {
    let server = StubTransport(
      status: 400, json: Fixture.errorBody("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
    let (backend, store) = try Self.signedIn(server)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) {
      if operation == "password" {
        try await backend.updatePassword("n3w-password")
      } else {
        _ = try await backend.updateEmail("bob@example.com")
      }
    }
    #expect(error.code == .requiresRecentLogin)
    #expect(error.backendCode == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    #expect(try await store.load() == before)
    #expect(server.count == 1)
  }

  @Test(
    "account-change answers map to the port's codes",
    arguments: [
      ("EMAIL_EXISTS", "email", "accountAlreadyExists"),
      ("INVALID_EMAIL", "email", "invalidEmail"),
      ("WEAK_PASSWORD : Password should be at least 6 characters", "password", "weakPassword"),
      ("INVALID_OOB_CODE", "apply", "invalidInput:code"),
      ("EXPIRED_OOB_CODE", "apply", "invalidInput:code"),
      ("INVALID_OOB_CODE", "reset", "invalidInput:code"),
      ("EXPIRED_OOB_CODE", "reset", "invalidInput:code"),
      ("OPERATION_NOT_ALLOWED", "reset", "unsupported:passwordResetCompletion"),
      ("TOO_MANY_ATTEMPTS_TRY_LATER", "verify", "rateLimited"),
      ("USER_MISMATCH", "reauth", "userMismatch"),
      ("INVALID_LOGIN_CREDENTIALS", "reauth", "invalidCredentials"),
    ])
  func mapping(_ message: String, _ operation: String, _ expected: String) async throws {
    let server = StubTransport(status: 400, json: Fixture.errorBody(message))
    let (backend, store) = try Self.signedIn(server)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) {
      switch operation {
      case "email": _ = try await backend.updateEmail("bob@example.com")
      case "password": try await backend.updatePassword("n3w-password")
      case "apply": try await backend.applyEmailVerification(code: "oob-secret-code")
      case "reset":
        try await backend.confirmPasswordReset(code: "oob-secret-code", newPassword: "n3w-pw-x")
      case "verify": try await backend.sendEmailVerification()
      default: _ = try await backend.reauthenticate(.email("alice@example.com", password: "pw"))
      }
    }
    var name = error.code.name
    if case .invalidInput(let field, _) = error.code { name += ":\(field)" }
    if case .unsupported(let capability) = error.code { name += ":\(capability)" }
    #expect(name == expected)
    #expect(!error.description.contains("oob-secret-code"))
    #expect(try await store.load() == before)
  }

  @Test(
    "a session the server rejects during an account change is cleared",
    arguments: ["USER_NOT_FOUND", "USER_DISABLED"])
  func sessionRejected(_ code: String) async throws {
    let server = StubTransport(status: 400, json: Fixture.errorBody(code))
    let (backend, store) = try Self.signedIn(server)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.updateProfile(displayName: "Bob", photoURL: nil)
    }
    #expect(error.code == .sessionExpired)
    #expect(try await store.load().session == nil)
  }

  @Test("TOKEN_EXPIRED during a change refreshes the ID token once and retries")
  func tokenExpiredRetries() async throws {
    let clock = ManualClock(Fixture.start)
    let normal = Fixture.server(clock: clock)
    let server = StubTransport { request in
      if request.operation == "accounts:update" && normal.count == 0 {
        _ = try await normal.send(request)
        return StubTransport.json(400, Fixture.errorBody("TOKEN_EXPIRED"))
      }
      return try await normal.send(request)
    }
    let (backend, _) = try Self.signedIn(server, clock: clock)
    try await backend.updatePassword("n3w-password")
    #expect(server.requests.map(\.operation) == ["accounts:update", "token", "accounts:update"])
  }

  @Test("OPERATION_NOT_ALLOWED on an email change says why (enumeration protection)")
  func emailChangeRefused() async throws {
    let server = StubTransport(
      status: 400,
      json: Fixture.errorBody(
        "OPERATION_NOT_ALLOWED : Please verify the new email before changing email."))
    let (backend, store) = try Self.signedIn(server)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.updateEmail("bob@example.com")
    }
    #expect(error.code == .unsupported(capability: .emailUpdate))
    #expect(error.message.contains("verifying the new address first"))
    #expect(try await store.load() == before)
  }

  @Test("updateProfile and updateEmail return and store the answered user")
  func profileAndEmail() async throws {
    let server = StubTransport(
      json: #"{"localId":"uid-1","email":"bob@example.com","displayName":"Bob","#
        + #""photoUrl":"https://e.example/b.png","emailVerified":false}"#)
    let (backend, store) = try Self.signedIn(server)
    let user = try await backend.updateProfile(
      displayName: "Bob", photoURL: "https://e.example/b.png")
    #expect(user.displayName == "Bob" && user.photoURL == URL(string: "https://e.example/b.png"))
    #expect(user.email == "bob@example.com" && user.emailVerified == false)
    #expect(try await store.load().session?.user == user)
    // Removal without the fields in the answer (production may leave them out).
    let quiet = StubTransport(json: #"{"localId":"uid-1"}"#)
    let (backend2, _) = try Self.signedIn(quiet)
    _ = try await backend2.updateProfile(displayName: "Bob", photoURL: "https://e.example/b.png")
    let removed = try await backend2.updateProfile(displayName: "", photoURL: "")
    #expect(removed.displayName == nil && removed.photoURL == nil)
  }

  @Test(
    "bad profile input is refused before any request",
    arguments: [
      (String?("A\u{0}"), String?.none), (nil, "ftp://e.example/a.png"), (nil, "relative/a.png"),
    ])
  func profileValidation(_ name: String?, _ photo: String?) async throws {
    let server = StubTransport(json: "{}")
    let (backend, _) = try Self.signedIn(server)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.updateProfile(displayName: name, photoURL: photo)
    }
    guard case .invalidInput(let field, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == (name != nil ? "displayName" : "photoURL"))
    #expect(server.count == 0)
  }

  @Test("reauthenticate as the signed-in user stores the new tokens")
  func reauthenticateSame() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 9)
    let server = StubTransport(
      json: Fixture.signInBody(idToken: token, refreshToken: "AMf-reauth"))
    let (backend, store) = try Self.signedIn(server, clock: clock)
    let session = try await backend.reauthenticate(.email("alice@example.com", password: "pw"))
    #expect(session.user.id == "uid-1" && !session.isNewUser)
    #expect(try await store.load().session?.refreshToken == "AMf-reauth")
    #expect(try await store.load().session?.bearerToken == token)
  }

  @Test("reauthenticate with another account's credential is userMismatch; nothing changes")
  func reauthenticateOther() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(
      uid: "uid-2", exp: Fixture.start.addingTimeInterval(3600), email: "bob@example.com")
    let server = StubTransport(
      json: Fixture.signInBody(
        idToken: token, refreshToken: "AMf-other", uid: "uid-2", email: "bob@example.com"))
    let (backend, store) = try Self.signedIn(server, clock: clock)
    let before = try await store.load()
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.reauthenticate(.email("bob@example.com", password: "pw"))
    }
    #expect(error.code == .userMismatch)
    #expect(try await store.load() == before)
    #expect(try await backend.currentUser()?.id == "uid-1")
  }

  @Test("reauthenticate and linkPassword need a signed-in user; no request is sent")
  func needsSignIn() async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    await #expect(throws: UserBackendError(.notSignedIn)) {
      _ = try await backend.reauthenticate(.email("alice@example.com", password: "pw"))
    }
    await #expect(throws: UserBackendError(.notSignedIn)) {
      _ = try await backend.linkPassword(.email("alice@example.com", password: "secret1"))
    }
    await #expect(throws: UserBackendError(.notSignedIn)) {
      try await backend.sendEmailVerification()
    }
    #expect(server.count == 0)
  }

  @Test("linkPassword on a user that is not anonymous is invalidInput(credential), no request")
  func linkNotAnonymous() async throws {
    let server = StubTransport(json: "{}")
    let (backend, _) = try Self.signedIn(server)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.linkPassword(.email("alice@example.com", password: "secret1"))
    }
    guard case .invalidInput(let field, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == "credential")
    #expect(server.count == 0)
  }

  @Test("linkPassword upgrades the guest: same ID, password provider, new tokens stored")
  func linkAnonymous() async throws {
    let clock = ManualClock(Fixture.start)
    let guestToken = Fixture.idToken(
      uid: "uid-g", exp: Fixture.start.addingTimeInterval(3600), provider: "anonymous",
      email: nil)
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(id: "uid-g", providers: ["anonymous"], isAnonymous: true),
          bearerToken: guestToken, refreshToken: "AMf-guest",
          expiresAt: Fixture.start.addingTimeInterval(3600), isNewUser: true)))
    let linkedToken = Fixture.idToken(
      uid: "uid-g", exp: Fixture.start.addingTimeInterval(3600), email: "g@example.com")
    let server = StubTransport(
      json: #"{"localId":"uid-g","email":"g@example.com","emailVerified":false,"#
        + #""providerUserInfo":[{"providerId":"password","email":"g@example.com"}],"#
        + #""idToken":"\#(linkedToken)","refreshToken":"AMf-linked","expiresIn":"3600"}"#)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let session = try await backend.linkPassword(.email(" G@Example.com ", password: "secret1"))
    #expect(session.user.id == "uid-g")
    #expect(!session.user.isAnonymous && session.user.providers == ["password"])
    #expect(session.user.email == "g@example.com" && !session.isNewUser)
    #expect(try await store.load().session == session)
    #expect(session.refreshToken == "AMf-linked")
    let request = try #require(server.requests.first)
    #expect(request.operation == "accounts:update")
    #expect(
      request.bodyText
        == #"{"email":"g@example.com","idToken":"\#(guestToken)","password":"secret1","#
        + #""returnSecureToken":true}"#)
  }

  @Test("applying a verification code marks the signed-in user verified; no session needed")
  func applyVerification() async throws {
    let server = StubTransport(
      json: #"{"localId":"uid-1","email":"alice@example.com","emailVerified":true}"#)
    let (backend, store) = try Self.signedIn(server)
    try await backend.applyEmailVerification(code: "oob-1")
    #expect(try await store.load().session?.user.emailVerified == true)
    let signedOut = try Fixture.backend(StubTransport(json: #"{"localId":"uid-9"}"#))
    try await signedOut.applyEmailVerification(code: "oob-2")
  }

  @Test("a signed-in user without an email cannot ask for verification; no request")
  func verificationWithoutEmail() async throws {
    let server = StubTransport(json: "{}")
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(id: "uid-g", providers: ["anonymous"], isAnonymous: true),
          bearerToken: Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600)),
          refreshToken: "AMf-guest", expiresAt: Fixture.start.addingTimeInterval(3600),
          isNewUser: false)))
    let backend = try Fixture.backend(server, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.sendEmailVerification()
    }
    guard case .invalidInput(let field, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == "email")
    #expect(server.count == 0)
  }
}

/// Each account operation reaches the adapter through `any UserBackend` (a same-named
/// method with another signature would leave the port's `.unsupported` default in place).
@Suite("Firebase account operations through the protocol", .timeLimit(.minutes(1)))
struct AccountProtocolDispatchTests {
  @Test(
    "every claimed account capability is implemented, not the unsupported default",
    arguments: [
      Capability.userReload, .profileUpdate, .passwordUpdate, .emailUpdate, .emailVerification,
      .passwordResetCompletion, .reauthentication, .anonymousUpgrade,
    ])
  func dispatch(_ capability: Capability) async throws {
    let clock = ManualClock(Fixture.start)
    let store = Fixture.signedInStore(clock: clock)
    let backend: any UserBackend = try Fixture.backend(
      Fixture.server(clock: clock), store: store, clock: clock)
    #expect(backend.capabilities.contains(capability))
    do {
      switch capability {
      case .userReload: _ = try await backend.reload()
      case .profileUpdate: _ = try await backend.updateProfile(displayName: "A", photoURL: nil)
      case .passwordUpdate: try await backend.updatePassword("n3w-password")
      case .emailUpdate: _ = try await backend.updateEmail("alice@example.com")
      case .emailVerification: try await backend.sendEmailVerification()
      case .passwordResetCompletion:
        try await backend.confirmPasswordReset(code: "oob", newPassword: "n3w-password")
      case .reauthentication:
        _ = try await backend.reauthenticate(.email("alice@example.com", password: "pw"))
      default: _ = try await backend.linkPassword(.email("g@example.com", password: "secret1"))
      }
    } catch {
      if case .unsupported = error.code { Issue.record("\(capability): \(error)") }
    }
  }
}
