import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// Writes of the user object's own members that the emulator does not apply are refused
/// with an NCMB error, never answered 200 and ignored: the read-only members, `null` or
/// empty for a required one, and a member the emulator cannot change. A refused write
/// changes nothing (custom fields in the same body included).
@Suite("NCMB user object: members a write cannot change", .timeLimit(.minutes(1)))
struct NCMBUserMemberWriteTests {
  /// A body, the answer's status and code, and the message's field.
  static var refusedUpdates: [(body: [String: Any], status: Int, code: String, error: String)] {
    [
      (["mailAddressConfirm": true], 403, "E403005", "mailAddressConfirm must not be entered."),
      (["mailAddressConfirm": false], 403, "E403005", "mailAddressConfirm must not be entered."),
      (["mailAddressConfirm": NSNull()], 403, "E403005", "mailAddressConfirm must not be entered."),
      (["objectId": "zzz"], 403, "E403005", "objectId must not be entered."),
      (
        ["createDate": "2000-01-01T00:00:00.000Z"], 403, "E403005",
        "createDate must not be entered."
      ),
      (
        ["createDate": ["__type": "Date", "iso": "2000-01-01T00:00:00.000Z"]], 403, "E403005",
        "createDate must not be entered."
      ),
      (
        ["updateDate": "2000-01-01T00:00:00.000Z"], 403, "E403005",
        "updateDate must not be entered."
      ),
      (["sessionToken": "x"], 403, "E403005", "sessionToken must not be entered."),
      (["userName": NSNull()], 400, "E400003", "userName is empty."),
      (["userName": ""], 400, "E400003", "userName is empty."),
      (["userName": "   "], 400, "E400003", "userName is empty."),
      (["userName": 5], 400, "E400002", "userName is invalid."),
      (["password": NSNull()], 400, "E400003", "password is empty."),
      (["password": true], 400, "E400002", "password is invalid."),
      (["mailAddress": NSNull()], 403, "E403003", "Operation that are prohibited."),
      (["mailAddress": ["a"]], 400, "E400002", "mailAddress is invalid."),
      (["authData": ["anonymous": ["id": "x"]]], 403, "E403003", "Operation that are prohibited."),
      (["acl": "everyone"], 400, "E400002", "acl is invalid."),
      (["nick": "x", "objectId": "zzz"], 403, "E403005", "objectId must not be entered."),
      (["nick": "x", "userName": NSNull()], 400, "E400003", "userName is empty."),
      // Refused as a whole: the user name in the same body is not changed either.
      (
        ["userName": "ann3", "authData": ["anonymous": ["id": "x"]]], 403, "E403003",
        "Operation that are prohibited."
      ),
      (["userName": "ann3", "password": ""], 400, "E400003", "password is empty."),
    ]
  }

  private let store: UserStore
  private let handler: NCMBHandler
  private let requests = NCMBRequests()

  init() throws {
    store = try makeStore()
    handler = NCMBHandler(store: store)
  }

  private func signUp() async throws -> (id: String, token: String) {
    let answer = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: ["userName": "ann", "password": "secret1", "mailAddress": "ann@example.com"]))
    return (
      try #require(answer.json["objectId"] as? String),
      try #require(answer.json["sessionToken"] as? String)
    )
  }

  @Test func aWriteOfAMemberTheEmulatorDoesNotApplyIsRefusedAndChangesNothing() async throws {
    let ann = try await signUp()
    let before = await handler.handle(
      requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token)
    ).json
    for (body, status, code, message) in Self.refusedUpdates {
      let answer = await handler.handle(
        requests.request(.put, "/2013-09-01/users/\(ann.id)", body: body, sessionToken: ann.token))
      #expect(answer.status == status, "\(body)")
      #expect(answer.json["code"] as? String == code, "\(body)")
      #expect(answer.json["error"] as? String == message, "\(body)")
    }
    let after = await handler.handle(
      requests.request(.get, "/2013-09-01/users/\(ann.id)", sessionToken: ann.token)
    ).json
    for member in [
      "objectId", "userName", "mailAddress", "mailAddressConfirm", "createDate", "updateDate",
    ] {
      #expect("\(after[member] ?? "absent")" == "\(before[member] ?? "absent")", "\(member)")
    }
    #expect(after["nick"] == nil)
    #expect(try store.document(userID: ann.id) == nil)
    // The password is unchanged: the old one still signs in.
    let login = await handler.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "ann", "password": "secret1"]))
    #expect(login.status == 200)
  }

  @Test func theWritesThatApplyStillAnswer200() async throws {
    let ann = try await signUp()
    for body: [String: Any] in [
      ["nick": "x"], ["userName": "ann2"], ["mailAddress": "ann2@example.com"],
      ["password": "secret2"], ["displayName": NSNull()],
    ] {
      let answer = await handler.handle(
        requests.request(.put, "/2013-09-01/users/\(ann.id)", body: body, sessionToken: ann.token))
      #expect(answer.status == 200, "\(body): \(answer.json)")
    }
  }

  /// A sign-up that sets a read-only member is refused and creates no account.
  @Test(arguments: ["objectId", "createDate", "updateDate", "mailAddressConfirm"])
  func aSignUpSettingAReadOnlyMemberIsRefused(member: String) async throws {
    let value: Any = member == "mailAddressConfirm" ? true : "2000-01-01T00:00:00.000Z"
    let answer = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": "bob", "password": "secret1", member: value])
    )
    #expect(answer.status == 403)
    #expect(answer.json["code"] as? String == "E403005")
    #expect(answer.json["error"] as? String == "\(member) must not be entered.")
    #expect(try store.userCount() == 0)
  }
}
