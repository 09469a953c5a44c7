import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

@Suite("Emulator: one account table behind the Firebase and NCMB APIs", .timeLimit(.minutes(2)))
struct SharedAccountTests {
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

  func ncmbLogin(_ fields: [String: Any]) async -> HTTPResponse {
    await ncmb.handle(ncmbRequests.request(.post, "/2013-09-01/login", body: fields))
  }

  @Test(
    "an account created through Firebase signs in through NCMB by userName, by mailAddress once confirmed"
  )
  func firebaseAccountOnNCMB() async throws {
    let created = await firebase.handle(
      firebaseRequests.accounts(
        "signUp", ["email": "shared@example.com", "password": "secret1"]))
    let localID = try #require(created.json["localId"] as? String)
    let unconfirmed = await ncmbLogin(["mailAddress": "shared@example.com", "password": "secret1"])
    #expect(unconfirmed.ncmbCode == "E401002")
    try store.setEmailVerified(userID: localID, true)

    for fields in [
      ["userName": "shared@example.com", "password": "secret1"],
      ["mailAddress": "Shared@Example.com", "password": "secret1"],
    ] {
      let login = await ncmbLogin(fields)
      #expect(login.status == 200)
      #expect(login.json["objectId"] as? String == localID)
      #expect(login.json["userName"] as? String == "shared@example.com")
      #expect(login.json["mailAddress"] as? String == "shared@example.com")
    }
    let wrong = await ncmbLogin(["userName": "shared@example.com", "password": "wrong-pw"])
    #expect(wrong.ncmbCode == "E401002")

    let duplicate = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users",
        body: ["userName": "shared@example.com", "password": "other-pw"]))
    #expect(duplicate.ncmbCode == "E409001")
    #expect(duplicate.json["error"] as? String == "userName is duplication.")
    #expect(try store.userCount() == 1)
  }

  @Test("an account created through NCMB with a mailAddress signs in through Firebase")
  func ncmbAccountOnFirebase() async throws {
    let created = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users",
        body: [
          "userName": "bob@example.com", "mailAddress": "bob@example.com", "password": "secret1",
        ]))
    let objectID = try #require(created.json["objectId"] as? String)
    let signIn = await firebase.handle(
      firebaseRequests.accounts(
        "signInWithPassword", ["email": "bob@example.com", "password": "secret1"]))
    #expect(signIn.status == 200)
    #expect(signIn.json["localId"] as? String == objectID)
    let duplicate = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "bob@example.com", "password": "secret1"]))
    #expect(duplicate.firebaseMessage == "EMAIL_EXISTS")
  }

  @Test("a userName that is another account's email is still a different NCMB account")
  func userNameWins() async throws {
    _ = await firebase.handle(
      firebaseRequests.accounts("signUp", ["email": "carol@example.com", "password": "fire-pw"]))
    let other = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": "dave", "password": "ncmb-pw"]))
    #expect(other.status == 201)
    let login = await ncmbLogin(["userName": "dave", "password": "ncmb-pw"])
    #expect(login.json["userName"] as? String == "dave")
    #expect(login.json["mailAddress"] is NSNull)
  }
}

@Suite("Emulator: the adapters share accounts through one emulator", .timeLimit(.minutes(2)))
struct SharedAccountAdapterTests {
  @Test("an email signed up through the Firebase adapter signs in through the NCMB adapter")
  func firebaseThenNCMB() async throws {
    let rig = try EmulatorRig(.inProcess)
    let created = try await rig.firebase().signUp(.email("shared@example.com", password: "secret1"))
    let ncmb = try rig.ncmb()
    let session = try await ncmb.signIn(.email("shared@example.com", password: "secret1"))
    #expect(session.user.id == created.user.id)
    let again = await #expect(throws: UserBackendError.self) {
      try await rig.ncmb().signUp(.email("shared@example.com", password: "secret1"))
    }
    #expect(again?.code == .accountAlreadyExists)
    let wrong = await #expect(throws: UserBackendError.self) {
      try await rig.ncmb().signIn(.email("shared@example.com", password: "wrong-pw"))
    }
    #expect(wrong?.code == .invalidCredentials)
  }
}
