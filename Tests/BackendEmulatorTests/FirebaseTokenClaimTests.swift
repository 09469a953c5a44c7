import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite("Emulator: client-sent ID token claims never trap", .timeLimit(.minutes(2)))
struct FirebaseTokenClaimTests {
  let store: UserStore
  let firebase: FirebaseAuthHandler
  let firebaseRequests = FirebaseRequests()

  init() throws {
    store = try makeStore()
    firebase = FirebaseAuthHandler(store: store, projectID: "demo-test")
  }

  @Test(
    "Firebase: an ID token whose auth_time does not fit in Int is INVALID_ID_TOKEN",
    arguments: [1e300, -1e300, 9.3e18])
  func hugeAuthTime(_ huge: Double) async throws {
    let signUp = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "t@example.com", "password": "secret1"]))
    var tokenClaims = try claims(of: try #require(signUp.json["idToken"] as? String))
    tokenClaims["auth_time"] = huge
    let forged = JSONWebToken.unsigned(claims: tokenClaims)
    let lookup = await firebase.handle(firebaseRequests.accounts("lookup", ["idToken": forged]))
    #expect(lookup.status == 400)
    #expect(lookup.firebaseMessage == "INVALID_ID_TOKEN")
  }

  /// A token whose payload has no one reading (a claim name given twice, a member that is
  /// not JSON) is `INVALID_ID_TOKEN`, as the client and the verifier refuse it: the
  /// emulator used to read the last `sub`, so an unsigned token naming the caller first
  /// and another user last acted for the other user.
  @Test(
    "Firebase: an ID token whose claims have no one reading is INVALID_ID_TOKEN",
    arguments: [#","sub":"someone-else"}"#, #","x":"\ud800"}"#, #","aud":"other"}"#])
  func ambiguousClaims(_ tail: String) async throws {
    let signUp = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "t@example.com", "password": "secret1"]))
    let idToken = try #require(signUp.json["idToken"] as? String)
    // The issued token still works; the same claims with one more member do not.
    let fine = await firebase.handle(firebaseRequests.accounts("lookup", ["idToken": idToken]))
    #expect(fine.status == 200)
    let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
    var payload = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
    payload.removeLast()
    let forged = parts[0] + "." + Base64URL.encode(Data((payload + tail).utf8)) + "."
    let lookup = await firebase.handle(firebaseRequests.accounts("lookup", ["idToken": forged]))
    #expect(lookup.status == 400)
    #expect(lookup.firebaseMessage == "INVALID_ID_TOKEN")
  }
}
