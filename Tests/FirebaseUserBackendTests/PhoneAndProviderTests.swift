import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase phone and identity-provider sign-in", .timeLimit(.minutes(2)))
struct PhoneAndProviderTests {
  @Test("the pending phone verification survives a restart between start and verify")
  func phoneRestart() async throws {
    let clock = ManualClock(Fixture.start)
    let server = Fixture.server(clock: clock)
    let store = InMemorySessionStore()

    let first = try Fixture.backend(server, store: store, clock: clock)
    let verificationID = try await first.startPhoneVerification(phoneNumber: " +819012345678 ")
    #expect(verificationID == "SESSION-INFO-1")
    #expect(
      try await store.load().pendingPhoneVerification
        == PendingPhoneVerification(
          verificationID: "SESSION-INFO-1", phoneNumber: "+819012345678",
          requestedAt: Fixture.start))

    // "Restart": a new backend instance on the same store.
    let second = try Fixture.backend(server, store: store, clock: clock)
    let pending = try #require(try await store.load().pendingPhoneVerification)
    let session = try await second.signIn(verificationID: pending.verificationID, code: "123456")
    #expect(session.isNewUser)
    #expect(
      session.user
        == User(id: "uid-phone", phoneNumber: "+819012345678", providers: ["phone"]))
    let state = try await store.load()
    #expect(state.pendingPhoneVerification == nil)
    #expect(state.session == session)
    #expect(
      server.requests.map(\.operation)
        == ["accounts:sendVerificationCode", "accounts:signInWithPhoneNumber"])
  }

  @Test(
    "a phone number not in E.164 form is refused before any request",
    arguments: [
      "", "09012345678", "+0123456789", "+81 90 1234 5678", "+81-90-1234-5678",
      "+1234567890123456", "+", "+81abc",
    ])
  func phoneValidation(number: String) async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.startPhoneVerification(phoneNumber: number)
    }
    guard case .invalidInput(let field, _) = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "phoneNumber")
    #expect(server.count == 0)
  }

  @Test(
    "an empty verification ID or a non-numeric code is refused before any request",
    arguments: [("", "123456", "verificationID"), ("v-1", "", "code"), ("v-1", "12a456", "code")])
  func phoneCodeValidation(verificationID: String, code: String, field: String) async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(verificationID: verificationID, code: code)
    }
    guard case .invalidInput(let gotField, _) = error?.code else {
      Issue.record("expected invalidInput")
      return
    }
    #expect(gotField == field)
    #expect(server.count == 0)
  }

  @Test("a wrong SMS code is invalidCredentials and keeps the pending verification")
  func wrongCode() async throws {
    let pending = PendingPhoneVerification(
      verificationID: "SESSION-INFO-1", phoneNumber: "+819012345678", requestedAt: Fixture.start)
    let store = InMemorySessionStore(PersistedAuthState(pendingPhoneVerification: pending))
    let server = StubTransport(status: 400, json: Fixture.errorBody("INVALID_CODE"))
    let backend = try Fixture.backend(server, store: store)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(verificationID: "SESSION-INFO-1", code: "000000")
    }
    #expect(error?.code == .invalidCredentials)
    #expect(try await store.load().pendingPhoneVerification == pending)
  }

  @Test("Sign in with Apple: isNewUser and the user come from the answer")
  func appleSignIn() async throws {
    let clock = ManualClock(Fixture.start)
    let backend = try Fixture.backend(Fixture.server(clock: clock), clock: clock)
    let session = try await backend.signIn(
      with: IdentityProviderCredential(provider: "apple.com", idToken: "a.b.c", rawNonce: "n"))
    #expect(session.isNewUser)
    #expect(
      session.user
        == User(
          id: "uid-apple", email: "relay@privaterelay.appleid.com", providers: ["apple.com"]))
  }

  @Test("isNewUser false is passed through")
  func appleReturningUser() async throws {
    let clock = ManualClock(Fixture.start)
    let token = Fixture.idToken(
      uid: "uid-apple", exp: Fixture.start.addingTimeInterval(3600), provider: "apple.com")
    let server = StubTransport(
      json:
        #"{"localId":"uid-apple","providerId":"apple.com","idToken":"\#(token)","refreshToken":"r","expiresIn":"3600","isNewUser":false}"#
    )
    let backend = try Fixture.backend(server, clock: clock)
    let session = try await backend.signIn(
      with: IdentityProviderCredential(provider: "apple.com", idToken: "a.b.c", rawNonce: nil))
    #expect(!session.isNewUser)
    #expect(server.requests.first?.bodyText.contains("nonce") == false)
  }

  @Test(
    "a 200 answer carrying errorMessage (or needConfirmation) is an error",
    arguments: [
      (
        #"{"errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","federatedId":"x","providerId":"apple.com","oauthIdToken":"t"}"#,
        "FEDERATED_USER_ID_ALREADY_LINKED"
      ),
      (
        #"{"errorMessage":"EMAIL_EXISTS","email":"alice@example.com","providerId":"apple.com"}"#,
        "EMAIL_EXISTS"
      ),
      (
        #"{"needConfirmation":true,"email":"alice@example.com","providerId":"apple.com","localId":"u"}"#,
        "NEED_CONFIRMATION"
      ),
    ])
  func idpErrorInOK(body: String, code: String) async throws {
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(StubTransport(status: 200, json: body), store: store)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(provider: "apple.com", idToken: "a.b.c", rawNonce: "n"))
    }
    #expect(error?.code == .accountAlreadyExists)
    #expect(error?.backendCode?.rawValue == code)
    #expect(try await store.load().session == nil)
  }

  @Test(
    "identity-provider input is checked before any request",
    arguments: [
      ("", "a.b.c", "n" as String?, "provider"), ("apple.com", "", "n", "idToken"),
      ("apple.com", "a.b.c", "", "rawNonce"),
    ])
  func idpValidation(provider: String, idToken: String, nonce: String?, field: String)
    async throws
  {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(provider: provider, idToken: idToken, rawNonce: nonce))
    }
    guard case .invalidInput(let gotField, _) = error?.code else {
      Issue.record("expected invalidInput")
      return
    }
    #expect(gotField == field)
    #expect(server.count == 0)
  }

  @Test("a password reset for a malformed email is refused before any request")
  func resetValidation() async throws {
    let server = StubTransport(json: "{}")
    let backend = try Fixture.backend(server)
    await #expect(throws: UserBackendError.self) {
      try await backend.sendPasswordReset(email: "nobody")
    }
    #expect(server.count == 0)
  }
}
