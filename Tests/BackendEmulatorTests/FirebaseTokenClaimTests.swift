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
}
