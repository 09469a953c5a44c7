import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// NCMB's mail-address login works only for a confirmed address (`mailAddressConfirm`
/// true); an unconfirmed one is answered like a wrong password, `401 E401002`.
@Suite("Emulator: NCMB mail-address login needs a confirmed address", .timeLimit(.minutes(2)))
struct NCMBMailAddressLoginTests {
  let store: UserStore
  let ncmb: NCMBHandler
  let requests = NCMBRequests()

  init() throws {
    store = try makeStore()
    ncmb = NCMBHandler(store: store)
  }

  /// Creates `m1` with `victim@example.com` (unconfirmed); returns its `objectId`.
  func createUnconfirmed() async throws -> String {
    let created = await ncmb.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: [
          "userName": "m1", "mailAddress": "victim@example.com", "password": "pw-horse-77",
        ]))
    #expect(created.status == 201)
    return try #require(created.json["objectId"] as? String)
  }

  /// `POST login` with a JSON body, or `GET login` with the same fields in the query.
  func login(_ fields: [String: String], get: Bool) async -> HTTPResponse {
    guard get else {
      return await ncmb.handle(requests.request(.post, "/2013-09-01/login", body: fields))
    }
    var components = URLComponents()
    components.queryItems = fields.sorted { $0.key < $1.key }.map {
      URLQueryItem(name: $0.key, value: $0.value)
    }
    return await ncmb.handle(
      requests.request(.get, "/2013-09-01/login?\(components.percentEncodedQuery ?? "")"))
  }

  @Test(
    "an unconfirmed address is refused with E401002, by POST and by GET", arguments: [false, true])
  func unconfirmedRefused(get: Bool) async throws {
    _ = try await createUnconfirmed()
    let answer = await login(
      ["mailAddress": "victim@example.com", "password": "pw-horse-77"], get: get)
    #expect(answer.status == 401)
    #expect(answer.ncmbCode == "E401002")
    #expect(answer.json["sessionToken"] == nil)
    // The user name still signs in.
    let byName = await login(["userName": "m1", "password": "pw-horse-77"], get: get)
    #expect(byName.status == 200)
    #expect(byName.json["mailAddressConfirm"] as? Bool == false)
  }

  @Test("the same address signs in once it is confirmed", arguments: [false, true])
  func confirmedAccepted(get: Bool) async throws {
    let id = try await createUnconfirmed()
    try store.setEmailVerified(userID: id, true)
    let answer = await login(
      ["mailAddress": "Victim@Example.com", "password": "pw-horse-77"], get: get)
    #expect(answer.status == 200)
    #expect(answer.json["objectId"] as? String == id)
    #expect(answer.json["mailAddressConfirm"] as? Bool == true)
    let wrong = await login(
      ["mailAddress": "victim@example.com", "password": "wrong-horse-77"], get: get)
    #expect(wrong.ncmbCode == "E401002")
  }

  @Test("a changed address is unconfirmed again and stops signing in")
  func changedAddressUnconfirmed() async throws {
    let id = try await createUnconfirmed()
    try store.setEmailVerified(userID: id, true)
    let token = try store.createSessionToken(userID: id)
    let change = requests.request(
      .put, "/2013-09-01/users/\(id)", body: ["mailAddress": "new@example.com"],
      sessionToken: token)
    #expect(await ncmb.handle(change).status == 200)
    let answer = await login(
      ["mailAddress": "new@example.com", "password": "pw-horse-77"], get: false)
    #expect(answer.ncmbCode == "E401002")
  }

  @Test("the adapter's email sign-in does not reach an unconfirmed account by its address")
  func adapterFallbackRefused() async throws {
    let rig = try EmulatorRig(.inProcess)
    let created = await NCMBHandler(store: rig.store).handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: [
          "userName": "m1", "mailAddress": "victim@example.com", "password": "pw-horse-77",
        ]))
    let id = try #require(created.json["objectId"] as? String)
    let backend = try rig.ncmb()
    let refused = await #expect(throws: UserBackendError.self) {
      try await backend.signIn(.email("victim@example.com", password: "pw-horse-77"))
    }
    #expect(refused?.code == .invalidCredentials)
    #expect(try await backend.currentUser() == nil)
    try rig.store.setEmailVerified(userID: id, true)
    let session = try await backend.signIn(.email("victim@example.com", password: "pw-horse-77"))
    #expect(session.user.id == id)
    #expect(session.user.emailVerified == true)
  }
}
