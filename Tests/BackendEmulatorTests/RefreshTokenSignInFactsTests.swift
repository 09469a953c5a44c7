import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// The sign-in a Firebase refresh token continues (`auth_time`, provider, the provider's
/// subject) is kept by the emulator with the token in its store, not in the token: a
/// client that edits its refresh token gets `INVALID_REFRESH_TOKEN`, never an ID token
/// (signed under `--sign-tokens`) with a fresh `auth_time`, a verified email or another
/// provider. `email_verified` and the `emailVerified` of every answer are the stored
/// account's.
@Suite(
  "Emulator: refresh tokens are opaque; the sign-in stays on the server", .timeLimit(.minutes(1)))
struct RefreshTokenSignInFactsTests {
  let clock = ManualClock()
  let store: UserStore
  let handler: FirebaseAuthHandler
  let requests = FirebaseRequests()

  init() throws {
    store = try makeStore(clock: clock)
    handler = FirebaseAuthHandler(
      store: store, signing: try FirebaseTokenSigning.generate(), recentLoginWindow: 60)
  }

  func refresh(_ token: String) async -> HTTPResponse {
    let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    return await handler.handle(
      requests.token(form: "grant_type=refresh_token&refresh_token=\(encoded)"))
  }

  /// `token` with the sign-in facts an earlier version put after its last `.` replaced by
  /// a forged set (fresh `auth_time`, `google.com`, a verified email).
  func forged(_ token: String, uid: String) -> String {
    let storePart = token.split(separator: ".").first.map(String.init) ?? token
    let facts: [String: Any] = [
      "uid": uid, "authTime": Int(clock.now().timeIntervalSince1970),
      "provider": "google.com", "subject": "attacker-sub", "emailVerified": true,
    ]
    return storePart + "." + Base64URL.encode(jsonData(facts))
  }

  @Test func anEditedRefreshTokenIsRefusedAndMintsNothing() async throws {
    let created = await handler.handle(
      requests.accounts(
        "signUp",
        ["email": "eve@example.com", "password": "secret1", "returnSecureToken": true]))
    let refreshToken = try #require(created.json["refreshToken"] as? String)
    let uid = try #require(created.json["localId"] as? String)
    #expect(!refreshToken.contains("."), "the refresh token carries nothing but a store token")
    clock.advance(by: 120)
    for edited in [
      forged(refreshToken, uid: uid), refreshToken + ".e30", String(refreshToken.dropLast()),
      String(refreshToken.dropLast()) + (refreshToken.hasSuffix("A") ? "B" : "A"),
    ] {
      let answer = await refresh(edited)
      #expect(answer.status == 400, "\(answer.json)")
      #expect(answer.firebaseMessage == "INVALID_REFRESH_TOKEN")
      #expect(answer.json["id_token"] == nil)
    }
    // The honest token still refreshes: the old sign-in, the stored account's facts.
    let honest = await refresh(refreshToken)
    let idToken = try #require(honest.json["id_token"] as? String)
    let refreshed = try claims(of: idToken)
    #expect(refreshed["auth_time"] as? Int == Int(clock.now().timeIntervalSince1970) - 120)
    #expect(refreshed["email_verified"] as? Bool == false)
    let firebase = try #require(refreshed["firebase"] as? [String: Any])
    #expect(firebase["sign_in_provider"] as? String == "password")
    #expect((firebase["identities"] as? [String: Any])?["google.com"] == nil)
    // So the recent-login rule holds.
    let change = await handler.handle(
      requests.accounts("update", ["idToken": idToken, "password": "secret2"]))
    #expect(change.firebaseMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
  }

  @Test func aTokenIssuedWithoutStoredFactsIsRefused() async throws {
    // What an account database of schema 3 holds: a refresh-token row without sign-in
    // facts, whose token the client holds as `<store token>.<base64url facts>`.
    let user = try store.createUser(NewUser(email: "old@example.com", password: "secret1"))
    let storeToken = try store.issueRefreshToken(userID: user.id)
    let facts: [String: Any] = [
      "uid": user.id, "authTime": Int(clock.now().timeIntervalSince1970),
      "provider": "password", "emailVerified": false,
    ]
    for token in [storeToken + "." + Base64URL.encode(jsonData(facts)), storeToken] {
      let answer = await refresh(token)
      #expect(answer.firebaseMessage == "INVALID_REFRESH_TOKEN", "\(answer.json)")
    }
    #expect(try store.user(id: user.id) != nil, "the account itself is kept")
  }

  @Test func emailVerifiedIsTheStoredAccountsNotTheTokens() async throws {
    // Unsigned ID tokens are accepted without --sign-tokens (as by the Auth Emulator), so
    // a client can claim anything in one; the answers still say what the account holds.
    let unsigned = FirebaseAuthHandler(store: store)
    let created = await unsigned.handle(
      requests.accounts(
        "signUp",
        ["email": "ann@example.com", "password": "secret1", "returnSecureToken": true]))
    var tokenClaims = try claims(of: try #require(created.json["idToken"] as? String))
    tokenClaims["email_verified"] = true
    let claimed = JSONWebToken.unsigned(claims: tokenClaims)
    let update = await unsigned.handle(
      requests.accounts(
        "update", ["idToken": claimed, "displayName": "Ann", "returnSecureToken": true]))
    #expect(update.status == 200)
    #expect(update.json["emailVerified"] as? Bool == false)
    let minted = try claims(of: try #require(update.json["idToken"] as? String))
    #expect(minted["email_verified"] as? Bool == false)
    let lookup = await unsigned.handle(requests.accounts("lookup", ["idToken": claimed]))
    let users = try #require(lookup.json["users"] as? [[String: Any]])
    #expect(users.first?["emailVerified"] as? Bool == false)
  }

  @Test func anIdentityProvidersVerifiedEmailIsRecordedOnTheAccount() async throws {
    let idpToken = JSONWebToken.unsigned(claims: [
      "iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": "apple-sub-9",
      "email": "idp@example.com", "email_verified": "true",
    ])
    let answer = await handler.handle(
      requests.accounts(
        "signInWithIdp",
        [
          "postBody": "id_token=\(idpToken)&providerId=apple.com",
          "requestUri": "http://localhost", "returnSecureToken": true,
        ]))
    #expect(answer.status == 200, "\(answer.json)")
    #expect(answer.json["emailVerified"] as? Bool == true)
    let uid = try #require(answer.json["localId"] as? String)
    #expect(try store.user(id: uid)?.emailVerified == true)
    let refreshed = await refresh(try #require(answer.json["refreshToken"] as? String))
    let minted = try claims(of: try #require(refreshed.json["id_token"] as? String))
    #expect(minted["email_verified"] as? Bool == true)
    let firebase = try #require(minted["firebase"] as? [String: Any])
    #expect(firebase["sign_in_provider"] as? String == "apple.com")
    #expect(
      (firebase["identities"] as? [String: Any])?["apple.com"] as? [String] == ["apple-sub-9"])
  }
}
