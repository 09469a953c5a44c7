import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite("Emulator: wrongly typed input is refused like production", .timeLimit(.minutes(2)))
struct WireInputTests {
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

  @Test(
    "Firebase: a field of the wrong JSON type is 400 INVALID_ARGUMENT naming the field",
    arguments: [
      ("signUp", #"{"email":5}"#, "email"),
      ("signUp", #"{"email":"a@example.com","password":123456}"#, "password"),
      ("signUp", #"{"email":["a@example.com"],"password":"secret1"}"#, "email"),
      ("signInWithPassword", #"{"email":"a@example.com","password":true}"#, "password"),
      ("lookup", #"{"idToken":42}"#, "idToken"),
    ])
  func firebaseWrongType(_ operation: String, _ body: String, _ field: String) async throws {
    var request = firebaseRequests.accounts(operation, [:])
    request.body = Data(body.utf8)
    let response = await firebase.handle(request)
    #expect(response.status == 400)
    let error = try #require(response.json["error"] as? [String: Any])
    #expect(error["status"] as? String == "INVALID_ARGUMENT")
    let message = try #require(error["message"] as? String)
    #expect(message.hasPrefix("Invalid JSON payload received."))
    #expect(message.contains("'\(field)'"))
    #expect(!message.contains("123456"))
    #expect(try store.userCount() == 0)
  }

  @Test("Firebase: a token request with a number as refresh token is a type error")
  func firebaseTokenWrongType() async throws {
    var request = firebaseRequests.token(form: "")
    request.headerFields["Content-Type"] = "application/json"
    request.body = jsonData(["grant_type": "refresh_token", "refresh_token": 5])
    let response = await firebase.handle(request)
    #expect(response.status == 400)
    #expect(response.firebaseMessage?.contains("'refresh_token'") == true)
  }

  @Test(
    "NCMB: a field of the wrong JSON type is E400002 naming the field",
    arguments: [
      ("users", #"{"userName":5,"password":"secret1"}"#, "userName"),
      ("users", #"{"userName":"ada","password":123456}"#, "password"),
      ("users", #"{"userName":"ada","password":"secret1","mailAddress":1}"#, "mailAddress"),
      ("login", #"{"userName":"ada","password":123456}"#, "password"),
      ("login", #"{"mailAddress":false,"password":"secret1"}"#, "mailAddress"),
    ])
  func ncmbWrongType(_ endpoint: String, _ body: String, _ field: String) async throws {
    // The NCMB signature does not cover the body, so the body can be swapped after signing.
    var request = ncmbRequests.request(.post, "/2013-09-01/" + endpoint, body: [:])
    request.body = Data(body.utf8)
    let response = await ncmb.handle(request)
    #expect(response.status == 400)
    #expect(response.ncmbCode == "E400002")
    #expect(response.json["error"] as? String == "\(field) is invalid.")
    #expect(try store.userCount() == 0)
  }
}
