import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// One operation and the exact request it must send (docs/wire/firebase-auth.md §1–§4).
struct WireCase: Sendable, CustomTestStringConvertible {
  let name: String
  let signedIn: Bool
  let operation: @Sendable (FirebaseUserBackend) async throws -> Void
  let path: String
  let contentType: String
  /// The exact body; JSON bodies are compact with sorted keys.
  let body: @Sendable (_ idToken: String) -> String

  var testDescription: String { name }

  static let all: [WireCase] = [
    WireCase(
      name: "signUp email", signedIn: false,
      operation: { _ = try await $0.signUp(.email(" Alice@Example.com ", password: "s3cret-pw")) },
      path: "identitytoolkit.googleapis.com/v1/accounts:signUp", contentType: "application/json",
      body: { _ in #"{"email":"alice@example.com","password":"s3cret-pw","returnSecureToken":true}"#
      }),
    WireCase(
      name: "signUp anonymous", signedIn: false,
      operation: { _ = try await $0.signInAnonymously() },
      path: "identitytoolkit.googleapis.com/v1/accounts:signUp", contentType: "application/json",
      body: { _ in #"{"returnSecureToken":true}"# }),
    WireCase(
      name: "signInWithPassword", signedIn: false,
      operation: { _ = try await $0.signIn(.email("alice@example.com", password: "s3cret-pw")) },
      path: "identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
      contentType: "application/json",
      body: { _ in #"{"email":"alice@example.com","password":"s3cret-pw","returnSecureToken":true}"#
      }),
    WireCase(
      name: "lookup", signedIn: true, operation: { _ = try await $0.reload() },
      path: "identitytoolkit.googleapis.com/v1/accounts:lookup", contentType: "application/json",
      body: { #"{"idToken":"\#($0)"}"# }),
    WireCase(
      name: "update password", signedIn: true,
      operation: { try await $0.updatePassword("n3w-password") },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: { #"{"idToken":"\#($0)","password":"n3w-password","returnSecureToken":true}"# }),
    WireCase(
      name: "update displayName", signedIn: true,
      operation: { _ = try await $0.updateProfile(displayName: "Alice", photoURL: nil) },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: { #"{"displayName":"Alice","idToken":"\#($0)","returnSecureToken":true}"# }),
    WireCase(
      name: "update profile: set both", signedIn: true,
      operation: {
        _ = try await $0.updateProfile(displayName: "Alice", photoURL: "https://e.example/a.png")
      },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: {
        #"{"displayName":"Alice","idToken":"\#($0)","photoUrl":"https://e.example/a.png","#
          + #""returnSecureToken":true}"#
      }),
    WireCase(
      name: "update profile: remove both", signedIn: true,
      operation: { _ = try await $0.updateProfile(displayName: "", photoURL: "") },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: {
        #"{"deleteAttribute":["DISPLAY_NAME","PHOTO_URL"],"idToken":"\#($0)","#
          + #""returnSecureToken":true}"#
      }),
    WireCase(
      name: "update email", signedIn: true,
      operation: { _ = try await $0.updateEmail(" Bob@Example.COM ") },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: { #"{"email":"bob@example.com","idToken":"\#($0)","returnSecureToken":true}"# }),
    WireCase(
      name: "sendOobCode VERIFY_EMAIL", signedIn: true,
      operation: { try await $0.sendEmailVerification() },
      path: "identitytoolkit.googleapis.com/v1/accounts:sendOobCode",
      contentType: "application/json",
      body: { #"{"idToken":"\#($0)","requestType":"VERIFY_EMAIL"}"# }),
    WireCase(
      name: "update oobCode (apply verification)", signedIn: false,
      operation: { try await $0.applyEmailVerification(code: " oob-CODE_1 ") },
      path: "identitytoolkit.googleapis.com/v1/accounts:update", contentType: "application/json",
      body: { _ in #"{"oobCode":"oob-CODE_1"}"# }),
    WireCase(
      name: "resetPassword", signedIn: false,
      operation: { try await $0.confirmPasswordReset(code: "oob-CODE_2", newPassword: "n3w-pw") },
      path: "identitytoolkit.googleapis.com/v1/accounts:resetPassword",
      contentType: "application/json",
      body: { _ in #"{"newPassword":"n3w-pw","oobCode":"oob-CODE_2"}"# }),
    WireCase(
      name: "reauthenticate (signInWithPassword)", signedIn: true,
      operation: { _ = try await $0.reauthenticate(.email("Alice@example.com", password: "pw")) },
      path: "identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
      contentType: "application/json",
      body: { _ in #"{"email":"alice@example.com","password":"pw","returnSecureToken":true}"# }),
    WireCase(
      name: "delete", signedIn: true, operation: { try await $0.deleteAccount() },
      path: "identitytoolkit.googleapis.com/v1/accounts:delete", contentType: "application/json",
      body: { #"{"idToken":"\#($0)"}"# }),
    WireCase(
      name: "sendOobCode PASSWORD_RESET", signedIn: false,
      operation: { try await $0.sendPasswordReset(email: "alice@example.com") },
      path: "identitytoolkit.googleapis.com/v1/accounts:sendOobCode",
      contentType: "application/json",
      body: { _ in #"{"email":"alice@example.com","requestType":"PASSWORD_RESET"}"# }),
    WireCase(
      name: "securetoken refresh", signedIn: true,
      operation: { _ = try await $0.idToken(forceRefresh: true) },
      path: "securetoken.googleapis.com/v1/token",
      contentType: "application/x-www-form-urlencoded",
      body: { _ in "grant_type=refresh_token&refresh_token=AMf-refresh-token-0001" }),
    WireCase(
      name: "sendVerificationCode", signedIn: false,
      operation: { _ = try await $0.startPhoneVerification(phoneNumber: "+819012345678") },
      path: "identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode",
      contentType: "application/json", body: { _ in #"{"phoneNumber":"+819012345678"}"# }),
    WireCase(
      name: "signInWithPhoneNumber", signedIn: false,
      operation: { _ = try await $0.signIn(verificationID: "SESSION-INFO-1", code: "123456") },
      path: "identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber",
      contentType: "application/json",
      body: { _ in #"{"code":"123456","sessionInfo":"SESSION-INFO-1"}"# }),
    WireCase(
      name: "signInWithIdp apple.com", signedIn: false,
      operation: {
        _ = try await $0.signIn(
          with: IdentityProviderCredential(
            provider: "apple.com", idToken: "eyJh.eyJz.sig", rawNonce: "raw nonce+1"))
      },
      path: "identitytoolkit.googleapis.com/v1/accounts:signInWithIdp",
      contentType: "application/json",
      body: { _ in
        #"{"postBody":"id_token=eyJh.eyJz.sig&providerId=apple.com&nonce=raw%20nonce%2B1","#
          + #""requestUri":"http://localhost","returnIdpCredential":true,"returnSecureToken":true}"#
      }),
  ]
}

@Suite("Firebase request bytes", .timeLimit(.minutes(2)))
struct RequestBytesTests {
  @Test("each endpoint sends the documented request (production)", arguments: WireCase.all)
  func production(_ wire: WireCase) async throws {
    try await check(wire, emulatorHost: nil, base: "https://")
  }

  @Test("each endpoint sends the documented request (emulator)", arguments: WireCase.all)
  func emulator(_ wire: WireCase) async throws {
    try await check(wire, emulatorHost: "127.0.0.1:9099", base: "http://127.0.0.1:9099/")
  }

  private func check(_ wire: WireCase, emulatorHost: String?, base: String) async throws {
    let clock = ManualClock(Fixture.start)
    let server = Fixture.server(clock: clock)
    let store = wire.signedIn ? Fixture.signedInStore(clock: clock) : InMemorySessionStore()
    let storedToken = try await store.load().session?.bearerToken ?? ""
    let backend = try Fixture.backend(
      server, store: store, clock: clock, emulatorHost: emulatorHost)
    try await wire.operation(backend)
    let request = try #require(server.requests.last)
    #expect(server.count == 1)
    #expect(request.method == .post)
    #expect(request.url.absoluteString == base + wire.path + "?key=" + Fixture.apiKey)
    #expect(request.headerFields == ["Content-Type": wire.contentType])
    #expect(request.bodyText == wire.body(storedToken))
    if wire.contentType == "application/json" {
      // Also valid JSON whose keys are sorted (cassette matching relies on it).
      let object = try #require(
        try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
      let resorted = try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      #expect(String(decoding: resorted, as: UTF8.self) == request.bodyText)
    }
  }
}
