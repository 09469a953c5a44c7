import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// `displayName` and `photoURL` are ordinary custom fields of an NCMB user: any client may
/// store any length. One over the client's input limit is dropped (`nil`) on every path
/// that reads the user; the sign-in, reauthentication or reload still succeeds.
@Suite("NCMB: over-long profile fields are dropped, never the answer", .timeLimit(.minutes(1)))
struct NCMBProfileAnswerLimitTests {
  static let longName = String(
    repeating: "n", count: CredentialValidation.maximumDisplayNameLength + 1)
  static let longPhoto =
    "https://example.com/"
    + String(repeating: "p", count: CredentialValidation.maximumPhotoURLLength)
  static let profile = #""displayName":"\#(longName)","photoURL":"\#(longPhoto)""#

  static func answer(_ members: String) -> String {
    #"{"objectId":"epaKcaYZqsREdSMY","userName":"alice","sessionToken":"\#(Fixture.sessionToken)","#
      + #""createDate":"2013-08-28T11:27:16.446Z","authData":null,\#(members)}"#
  }

  @Test(
    "a sign-in answer's over-long profile is dropped",
    arguments: NCMBUserIDTrustTests.SignIn.allCases)
  func signIn(_ flow: NCMBUserIDTrustTests.SignIn) async throws {
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(
      StubTransport(status: 201, json: Self.answer(Self.profile)), store: store)
    let credential = PasswordCredential.username("alice", password: "password-1")
    let session: AuthSession
    switch flow {
    case .signUp: session = try await backend.signUp(credential)
    case .password: session = try await backend.signIn(credential)
    case .anonymous: session = try await backend.signInAnonymously()
    case .apple:
      session = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com",
          idToken: JSONWebToken.unsigned(claims: ["sub": "001234.abcd", "aud": "com.example"]),
          rawNonce: nil, authorizationCode: "code"))
    }
    #expect(session.user.displayName == nil)
    #expect(session.user.photoURL == nil)
    #expect(try await store.load().session == session)
  }

  @Test("a reauthentication answer's over-long profile is dropped")
  func reauthenticate() async throws {
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(
      StubTransport(status: 200, json: Self.answer(Self.profile)), store: store)
    let session = try await backend.reauthenticate(.username("alice", password: "password-1"))
    #expect(session.user.displayName == nil)
    #expect(session.user.photoURL == nil)
  }

  @Test("a reload answer's over-long profile is dropped")
  func reload() async throws {
    let store = Fixture.signedInStore()
    let body = #"{"objectId":"epaKcaYZqsREdSMY","mailAddressConfirm":true,\#(Self.profile)}"#
    let backend = try Fixture.backend(StubTransport(status: 200, json: body), store: store)
    let user = try await backend.reload()
    #expect(user.displayName == nil)
    #expect(user.photoURL == nil)
    #expect(user.emailVerified == true)
    #expect(try await store.load().session?.user == user)
  }

  @Test("a stored session holding an over-long profile is still updated")
  func storedSession() async throws {
    var session = try #require(try await Fixture.signedInStore().load().session)
    session.user.displayName = Self.longName
    session.user.photoURL = URL(string: Self.longPhoto)
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let backend = try Fixture.backend(
      StubTransport(status: 200, json: #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
      store: store)
    let user = try await backend.updateProfile(
      displayName: nil, photoURL: "https://example.com/a.png")
    #expect(user.displayName == nil)
    #expect(user.photoURL == URL(string: "https://example.com/a.png"))
    #expect(try await store.load().session?.user == user)
  }
}
