import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// A time out of range in the emulator's database (an altered `--data` file) is a 500 for
/// the requests that read that row, in each protocol's error shape, and the emulator keeps
/// serving every other request: it neither traps nor shows a date outside 0001…9999.
@Suite("Emulator: stored times out of range over HTTP", .timeLimit(.minutes(2)))
struct StoredTimeRangeOverHTTPTests {
  private struct Running {
    let store: UserStore
    let server: EmulatorServer
    let port: Int
    let firebase: FirebaseRequests
    let ncmb: NCMBRequests
    /// Firebase users: (uid, ID token).
    let ann: (uid: String, token: String)
    let bob: (uid: String, token: String)

    func write(_ sql: String, _ values: [SQLValue] = []) throws {
      _ = try store.locked { db in try db.run(sql, values) }
    }

    func lookup(_ token: String) async throws -> RawResponse {
      try await send(firebase.accounts("lookup", ["idToken": token]), port: port)
    }

    func document(_ user: (uid: String, token: String)) async throws -> RawResponse {
      let url =
        "http://127.0.0.1:\(port)/v1/projects/demo-project/databases/(default)/documents/"
        + "users/\(user.uid)"
      let request = HTTPRequest(
        method: .get, url: URL(string: url)!,
        headerFields: ["Authorization": "Bearer \(user.token)"])
      return try await send(request, port: port)
    }
  }

  private func start() async throws -> Running {
    let store = try makeStore(clock: ManualClock(Date(timeIntervalSince1970: 1_764_504_000)))
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    let firebase = FirebaseRequests(base: "http://127.0.0.1:\(port)")
    var users: [(String, String)] = []
    for email in ["ann@example.com", "bob@example.com"] {
      let answer = try await send(
        firebase.accounts(
          "signUp", ["email": email, "password": "secret1", "returnSecureToken": true]),
        port: port)
      users.append(
        (answer.json["localId"] as? String ?? "", answer.json["idToken"] as? String ?? ""))
    }
    for (uid, _) in users {
      _ = try store.updateDocument(userID: uid, setting: ["x": .integer(1)], removing: [])
    }
    return Running(
      store: store, server: server, port: port, firebase: firebase,
      ncmb: NCMBRequests(base: "http://127.0.0.1:\(port)"), ann: users[0], bob: users[1])
  }

  private func firebaseError(_ response: RawResponse) -> (Int?, String?) {
    let error = response.json["error"] as? [String: Any]
    return (error?["code"] as? Int, (error?["status"] as? String) ?? error?["message"] as? String)
  }

  @Test(
    "accounts:lookup answers 500 for a user with a time out of range, 200 for the others",
    arguments: [
      "UPDATE users SET created_at = 1e17 WHERE id = ?",
      "UPDATE users SET created_at = 1e300 WHERE id = ?",
      "UPDATE users SET valid_since = 1e300 WHERE id = ?",
      "UPDATE users SET last_sign_in_at = -1e300 WHERE id = ?",
    ])
  func firebaseLookup(sql: String) async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    try run.write(sql, [.text(run.ann.uid)])
    let broken = try await run.lookup(run.ann.token)
    #expect(broken.status == 500)
    #expect(firebaseError(broken) == (500, "INTERNAL"))
    let other = try await run.lookup(run.bob.token)
    #expect(other.status == 200)
    let users = other.json["users"] as? [[String: Any]]
    #expect(users?.first?["localId"] as? String == run.bob.uid)
  }

  @Test(
    "a Firestore GET answers 500 for a document with a time out of range, 200 for others",
    arguments: [
      "UPDATE documents SET update_time = -9223372036854775808 WHERE user_id = ?",
      "UPDATE documents SET create_time = -9223372036854775807 WHERE user_id = ?",
      #"UPDATE documents SET fields = '{"x":{"t":"-9223372036854775000"}}' WHERE user_id = ?"#,
    ])
  func firestoreGet(sql: String) async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    try run.write(sql, [.text(run.ann.uid)])
    let broken = try await run.document(run.ann)
    #expect(broken.status == 500)
    #expect(firebaseError(broken) == (500, "INTERNAL"))
    let other = try await run.document(run.bob)
    #expect(other.status == 200)
    #expect(other.json["name"] as? String != nil)
  }

  @Test("an NCMB user GET answers E500001 for a time out of range, 200 for others")
  func ncmbUserGet() async throws {
    let run = try await start()
    defer { stopInBackground(run.server) }
    var users: [(id: String, token: String)] = []
    for name in ["carol", "dave"] {
      let answer = try await send(
        run.ncmb.request(
          .post, "/2013-09-01/users", body: ["userName": name, "password": "secret1"]),
        port: run.port)
      users.append(
        (answer.json["objectId"] as? String ?? "", answer.json["sessionToken"] as? String ?? ""))
    }
    try run.write("UPDATE users SET created_at = 1e300 WHERE id = ?", [.text(users[0].id)])
    let broken = try await send(
      run.ncmb.request(.get, "/2013-09-01/users/\(users[0].id)", sessionToken: users[0].token),
      port: run.port)
    #expect(broken.status == 500)
    #expect(broken.json["code"] as? String == "E500001")
    let other = try await send(
      run.ncmb.request(.get, "/2013-09-01/users/\(users[1].id)", sessionToken: users[1].token),
      port: run.port)
    #expect(other.status == 200)
    #expect(other.json["objectId"] as? String == users[1].id)
  }
}
