import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite("Emulator: oversized input is refused with production-like codes", .timeLimit(.minutes(2)))
struct WireLimitTests {
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

  static let longEmail = String(repeating: "a", count: 243) + "@example.com"  // 255

  @Test(
    "Firebase: an email over 254 characters is INVALID_EMAIL, a password over 4096 is refused",
    arguments: [
      (longEmail, "secret1", "INVALID_EMAIL"),
      ("a@example.com", String(repeating: "p", count: 4097), "password"),
    ])
  func firebaseLimits(_ email: String, _ password: String, _ expected: String) async throws {
    for operation in ["signUp", "signInWithPassword"] {
      let response = await firebase.handle(
        firebaseRequests.accounts(operation, ["email": email, "password": password]))
      #expect(response.status == 400)
      #expect(response.firebaseMessage?.contains(expected) == true)
    }
    #expect(try store.userCount() == 0)
  }

  /// One letter and 5,000 combining accents is one character to a person but 5,001 code
  /// points: over every limit, on both APIs.
  @Test("Firebase and NCMB: limits count code points, not visible characters")
  func combiningMarksCount() async throws {
    let marks = String(repeating: "\u{0301}", count: 5_000)
    let firebasePassword = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "a@example.com", "password": "a" + marks]))
    #expect(firebasePassword.status == 400)
    let firebaseEmail = await firebase.handle(
      firebaseRequests.accounts(
        "signUp", ["email": "a" + marks + "@example.com", "password": "secret1"]))
    #expect(firebaseEmail.status == 400)
    for body in [
      ["userName": "a" + marks, "password": "secret1"],
      ["userName": "ada", "password": "a" + marks],
    ] {
      let created = await ncmb.handle(ncmbRequests.request(.post, "/2013-09-01/users", body: body))
      #expect(created.status == 400)
    }
    #expect(try store.userCount() == 0)
  }

  @Test("Firebase and NCMB: values exactly at the limits are accepted")
  func atTheLimits() async throws {
    let email = String(repeating: "a", count: 242) + "@example.com"  // 254
    let password = String(repeating: "p", count: 4096)
    let signUp = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": email, "password": password]))
    #expect(signUp.status == 200)
    let userName = String(repeating: "u", count: 255)
    let created = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": userName, "password": password]))
    #expect(created.status == 201)
  }

  @Test(
    "NCMB: userName over 255, password over 4096, mailAddress over 254 are E400009",
    arguments: [
      (String(repeating: "u", count: 256), "secret1", nil as String?, "userName"),
      ("ada", String(repeating: "p", count: 4097), nil, "password"),
      ("ada", "secret1", longEmail, "mailAddress"),
    ])
  func ncmbLimits(_ userName: String, _ password: String, _ mail: String?, _ field: String)
    async throws
  {
    var body: [String: Any] = ["userName": userName, "password": password]
    if let mail { body["mailAddress"] = mail }
    let response = await ncmb.handle(ncmbRequests.request(.post, "/2013-09-01/users", body: body))
    #expect(response.ncmbCode == "E400009")
    #expect((response.json["error"] as? String)?.hasPrefix("\(field) size must be between") == true)
    #expect(try store.userCount() == 0)
  }
}
