import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// Control and format characters in identifiers are refused by the emulator's own checks
/// (a client that skips validation reaches them), and other text keeps its length through
/// the store: a value is never cut at a NUL.
@Suite("Emulator: text with NUL, control and format characters", .timeLimit(.minutes(1)))
struct NULTextTests {
  let store: UserStore
  let firebase: FirebaseAuthHandler
  let ncmb: NCMBHandler
  let firebaseRequests = FirebaseRequests()
  let ncmbRequests = NCMBRequests()

  init() throws {
    store = try makeStore()
    firebase = FirebaseAuthHandler(store: store, projectID: "demo-test")
    ncmb = NCMBHandler(store: store)
  }

  static let refusedCharacters = [
    "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{200B}", "\u{202E}", "\u{FEFF}",
  ]

  /// The attack from the issue: before, the three addresses were one account `"a"`.
  @Test func firebaseRefusesAnEmailWithANUL() async throws {
    let signUp = await firebase.handle(
      firebaseRequests.accounts(
        "signUp", ["email": "a\u{0}@example.com", "password": "secret1"]))
    #expect(signUp.firebaseMessage == "INVALID_EMAIL")
    let other = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "a\u{0}@other.org", "password": "secret1"]))
    #expect(other.firebaseMessage == "INVALID_EMAIL")
    let signIn = await firebase.handle(
      firebaseRequests.accounts(
        "signInWithPassword", ["email": "a\u{0}@elsewhere.net", "password": "secret1"]))
    #expect(signIn.firebaseMessage == "INVALID_EMAIL")
    #expect(try store.userCount() == 0)
  }

  @Test(arguments: refusedCharacters)
  func firebaseRefusesControlAndFormatCharactersInEmails(character: String) async throws {
    for operation in ["signUp", "signInWithPassword"] {
      let answer = await firebase.handle(
        firebaseRequests.accounts(
          operation, ["email": "a\(character)b@example.com", "password": "secret1"]))
      #expect(answer.firebaseMessage == "INVALID_EMAIL", "\(operation)")
    }
    let reset = await firebase.handle(
      firebaseRequests.accounts(
        "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a\(character)@example.com"]))
    #expect(reset.firebaseMessage == "INVALID_EMAIL")
    #expect(try store.userCount() == 0)
    #expect(try store.passwordResetRequests().isEmpty)
  }

  @Test(arguments: refusedCharacters)
  func ncmbRefusesControlAndFormatCharactersInIdentifiers(character: String) async throws {
    let byName = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": "a\(character)b", "password": "secret1"]))
    #expect(byName.ncmbCode == "E400004")
    #expect(byName.json["error"] as? String == "userName is invalid format.")
    let byMail = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users",
        body: [
          "userName": "mail-user", "mailAddress": "a\(character)@example.com",
          "password": "secret1",
        ]))
    #expect(byMail.ncmbCode == "E400004")
    let login = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/login", body: ["userName": "a\(character)b", "password": "secret1"]))
    #expect(login.ncmbCode == "E400004")
    #expect(try store.userCount() == 0)
  }

  /// Before, `ann\0anything` signed in as `ann`.
  @Test func ncmbLoginWithATailAfterANULIsNotTheAccount() async throws {
    let created = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": "ann", "password": "secret1"]))
    #expect(created.status == 201)
    let login = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/login", body: ["userName": "ann\u{0}evil", "password": "secret1"]))
    #expect(login.status != 200)
    #expect(login.json["objectId"] == nil)
  }

  /// A display name follows the client library's profile rule, which refuses control
  /// characters (NUL included): the sign-up is refused and nothing is stored.
  @Test func firebaseDisplayNameWithNULIsRefused() async throws {
    let signUp = await firebase.handle(
      firebaseRequests.accounts(
        "signUp",
        ["email": "ann@example.com", "password": "secret1", "displayName": "Ann\u{0}Lee"]))
    #expect(signUp.firebaseMessage?.hasPrefix("INVALID_DISPLAY_NAME : displayName ") == true)
    #expect(signUp.json["idToken"] == nil)
    #expect(try store.userCount() == 0)
  }

  /// Tokens are compared as whole values (the store keeps their SHA-256): a real refresh
  /// token followed by a NUL and more text is not that token.
  @Test func firebaseRefreshTokenWithATailAfterANULIsRefused() async throws {
    let signUp = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "ann@example.com", "password": "secret1"]))
    let refreshToken = try #require(signUp.json["refreshToken"] as? String)
    let answer = await firebase.handle(
      firebaseRequests.token(form: "grant_type=refresh_token&refresh_token=\(refreshToken)%00x"))
    #expect(answer.firebaseMessage == "INVALID_REFRESH_TOKEN")
  }

  /// Identity-provider subjects that differ only after a NUL are two accounts.
  @Test func firebaseProviderSubjectsKeepTheirNUL() async throws {
    func signIn(_ sub: String) async throws -> String? {
      let token = testIDPToken(sub: sub, nonce: nil)
      let answer = await firebase.handle(
        firebaseRequests.accounts(
          "signInWithIdp",
          [
            "postBody": "id_token=\(token)&providerId=apple.com", "requestUri": "http://localhost",
            "returnSecureToken": true,
          ]))
      return answer.json["localId"] as? String
    }
    let first = try #require(try await signIn("sub\u{0}one"))
    let second = try #require(try await signIn("sub\u{0}two"))
    #expect(first != second)
    #expect(try await signIn("sub\u{0}one") == first)
  }
}
