import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

// The user endpoints (`docs/wire/ncmb.md` §3) and their answers' shapes.
extension NCMBHandler {
  /// `POST users`: `userName` + `password` [+ `mailAddress`] → 201; `authData` → 201 new
  /// account, 200 existing one.
  func createUser(_ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    let body = context.body
    try Self.checkUserMembers(body, creating: true)  // NCMBUserMemberRules.swift
    if let authData = body.object("authData") { return try authDataSignIn(authData) }
    guard let rawUserName = body.string("userName"), !rawUserName.trimmingSpaces().isEmpty
    else { throw .empty("userName") }
    guard let password = body.string("password"), !password.isEmpty else {
      throw .empty("password")
    }
    let userName = try Self.validUserName(rawUserName)
    try Self.checkPassword(password)
    let mailAddress = try body.string("mailAddress").map(Self.validMailAddress)
    if try account(userName: userName) != nil { throw .duplicate("userName") }
    if let mailAddress, try ncmbStore({ try store.user(email: mailAddress) }) != nil {
      throw .duplicate("mailAddress")
    }
    // The UNIQUE indexes decide concurrent sign-ups; answer only after the commit.
    let user = try ncmbStore {
      try store.createUser(NewUser(email: mailAddress, username: userName, password: password))
    }
    let token = try ncmbStore { try store.createSessionToken(userID: user.id) }
    var answer: [String: Any] = [
      "objectId": user.id, "userName": userName, "sessionToken": token,
      "createDate": Self.dateText(user.createdAt), "authData": WireResponse.null,
    ]
    if let mailAddress { answer["mailAddress"] = mailAddress }
    return WireResponse.jsonKeepingNumberKinds(201, answer)
  }

  /// `GET users/{objectId}`: public read; the owner's session token is echoed to the owner.
  func fetchUser(id: String, _ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    guard let user = try ncmbStore({ try store.user(id: id) }) else { throw .noData }
    try checkReadable(userID: id, context)
    var answer = try addingUserFields(Self.userObject(user), userID: id)
    if context.sessionUserID == id { answer["sessionToken"] = context.sessionToken }
    return WireResponse.jsonKeepingNumberKinds(200, answer)
  }

  /// `PUT users/{objectId}`: the owner may change the `userName`
  /// (``changeUserName(of:to:password:)``: on an anonymous user, with a password, this
  /// turns the guest into a password account with the same `objectId`), the password and
  /// the `mailAddress` (``changeMailAddress(of:to:)``). A member the emulator would not
  /// apply is refused (``checkUserMembers(_:creating:)``: read-only members `E403005`,
  /// `authData` `E403003`, …). Every check that needs no write runs before the first
  /// write, so a refused body changes nothing.
  func updateUser(id: String, _ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    var user = try ownedUser(id: id, context)
    let body = context.body
    try Self.checkUserMembers(body, creating: false)  // NCMBUserMemberRules.swift
    let fieldWrite = try userFieldWrite(body)  // custom fields and acl: NCMBUserFields.swift
    if let userName = body.string("userName") { _ = try Self.validUserName(userName) }
    if let mail = body.string("mailAddress") {
      let canonical = try Self.validMailAddress(mail)
      if canonical != user.email, try ncmbStore({ try store.user(email: canonical) }) != nil {
        throw .duplicate("mailAddress")
      }
    }
    if let userName = body.string("userName") {
      user = try changeUserName(of: user, to: userName, password: body.string("password"))
    }
    if let mail = body.string("mailAddress") { try changeMailAddress(of: user, to: mail) }
    if let password = body.string("password") {
      try ncmbStore { try store.updatePassword(userID: id, to: password) }
    }
    try apply(fieldWrite, userID: id)
    return WireResponse.jsonKeepingNumberKinds(
      200, ["updateDate": Self.dateText(store.clock.now())])
  }

  /// `DELETE users/{objectId}`: the owner only; 200 with an empty body.
  func deleteUser(id: String, _ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    _ = try ownedUser(id: id, context)
    guard try ncmbStore({ try store.deleteUser(id: id) }) else { throw .noData }
    return HTTPResponse(status: 200)
  }

  /// `POST login` (JSON body) or `GET login` (query): `userName` or `mailAddress`, and
  /// `password`.
  ///
  /// The mail-address login works only for a confirmed address (`mailAddressConfirm`
  /// true), as on the service: an account whose address is not confirmed is answered
  /// `401 E401002`, the same as a wrong password, so the answer does not tell whether the
  /// address belongs to an account.
  func login(_ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    let fields = context.body.fields.isEmpty ? context.query : context.body
    let rawUserName = fields.string("userName").flatMap { $0.isEmpty ? nil : $0 }
    let rawMailAddress = fields.string("mailAddress").flatMap { $0.isEmpty ? nil : $0 }
    guard rawUserName != nil || rawMailAddress != nil else { throw .empty("userName") }
    let userName = try rawUserName.map { name throws(NCMBError) in try Self.validUserName(name) }
    let mailAddress = try rawMailAddress.map { mail throws(NCMBError) in
      try Self.validMailAddress(mail)
    }
    guard let password = fields.string("password"), !password.isEmpty else {
      throw .empty("password")
    }
    try Self.checkPassword(password)
    let found: UserRecord?
    if let userName {
      found = try account(userName: userName)
    } else {
      found = try mailAddress.flatMap { mail throws(NCMBError) in
        try ncmbStore { try store.user(email: mail) }
      }
    }
    guard let user = found, !user.disabled, userName != nil || user.emailVerified,
      try ncmbStore({ try store.verifyPassword(password, userID: user.id) })
    else { throw .wrongCredentials }
    let token = try ncmbStore { try store.createSessionToken(userID: user.id) }
    var answer = Self.userObject(user)
    answer["sessionToken"] = token
    return WireResponse.jsonKeepingNumberKinds(200, answer)
  }

  /// `GET logout`: revokes the session token sent.
  func logout(_ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    guard let token = context.sessionToken else { throw .headerIncorrect }
    try ncmbStore { try store.deleteSessionToken(token) }
    return WireResponse.jsonKeepingNumberKinds(200, [:])
  }

  /// `POST requestPasswordReset` `{"mailAddress"}`: recorded in the store (no mail is
  /// sent); 201 `{"createDate"}`. A missing field is `E400006`, a bad one `E400004`.
  func requestPasswordReset(_ context: NCMBRequestContext) throws(NCMBError) -> HTTPResponse {
    guard let mail = context.body.string("mailAddress") else {
      throw NCMBError("E400006", "mailAddress does not exist.")
    }
    let canonical = try Self.validMailAddress(mail)
    try ncmbStore { try store.recordPasswordResetRequest(email: canonical) }
    try recordPasswordResetCode(email: canonical)
    return WireResponse.jsonKeepingNumberKinds(
      201, ["createDate": Self.dateText(store.clock.now())])
  }

  /// The account whose NCMB `userName` is `userName`, compared case-sensitively as the
  /// service compares it: the account with exactly that user name, or else a password
  /// account created through the Firebase API (an email, no user name) whose stored
  /// (canonical, lower-case) email is exactly `userName` (see ``BackendEmulator`` "One
  /// account table"). `Alice@Example.com` is not the user name of `alice@example.com`.
  func account(userName: String) throws(NCMBError) -> UserRecord? {
    if let user = try ncmbStore({ try store.user(username: userName) }) { return user }
    guard let user = try ncmbStore({ try store.user(email: userName) }),
      Self.emailIsUserName(user), user.email == userName.trimmingSpaces()
    else { return nil }
    return user
  }

  /// `true` for an account that has no user name and signs in with its email and a
  /// password (created through the Firebase API): its email serves as its `userName`.
  static func emailIsUserName(_ user: UserRecord) -> Bool {
    user.username == nil && user.email != nil && user.providers.contains("password")
  }

  /// The account `id` when the request's session token belongs to it; else `E403001`
  /// (no token, or another user's), or `E404001` when the account does not exist.
  private func ownedUser(id: String, _ context: NCMBRequestContext) throws(NCMBError)
    -> UserRecord
  {
    guard let owner = context.sessionUserID, owner == id else {
      if try ncmbStore({ try store.user(id: id) }) == nil { throw .noData }
      throw .noAccess
    }
    guard let user = try ncmbStore({ try store.user(id: id) }) else { throw .noData }
    return user
  }

  /// `E400009` when `value` is longer than `maximum` characters.
  static func checkLength(_ field: String, _ value: String, maximum: Int) throws(NCMBError) {
    guard CredentialValidation.limitedLength(value) <= maximum else {
      throw .size(field, maximum: maximum)
    }
  }

  /// `E400009` for a password longer than ``CredentialValidation/maximumPasswordLength``.
  static func checkPassword(_ password: String) throws(NCMBError) {
    try checkLength("password", password, maximum: CredentialValidation.maximumPasswordLength)
  }

  /// The canonical user name (``IdentifierCanonicalization/username(_:)``); `E400009`
  /// when longer than ``CredentialValidation/maximumUsernameLength`` characters, else
  /// `E400004 userName is invalid format.` for one it refuses (control or format
  /// characters).
  static func validUserName(_ name: String) throws(NCMBError) -> String {
    try checkLength(
      "userName", name.trimmingSpaces(), maximum: CredentialValidation.maximumUsernameLength)
    guard let canonical = try? IdentifierCanonicalization.username(name) else {
      throw .invalidFormat("userName")
    }
    return canonical
  }

  /// The canonical mail address; `E400009` when longer than
  /// ``CredentialValidation/maximumEmailLength`` characters, else
  /// `E400004 mailAddress is invalid format.` when malformed.
  static func validMailAddress(_ mail: String) throws(NCMBError) -> String {
    try checkLength(
      "mailAddress", CredentialValidation.canonicalEmail(mail),
      maximum: CredentialValidation.maximumEmailLength)
    guard let canonical = try? CredentialValidation.validateEmail(mail) else {
      throw .invalidFormat("mailAddress")
    }
    return canonical
  }

  /// A user object as `GET users/{id}` and `login` answer it (without `sessionToken`).
  static func userObject(_ user: UserRecord, authData: [String: Any]? = nil) -> [String: Any] {
    let linked = authData ?? Self.authDataKeys(user)
    return [
      "objectId": user.id,
      "userName": user.username ?? (emailIsUserName(user) ? user.email : nil) ?? WireResponse.null,
      "mailAddress": user.email ?? WireResponse.null, "mailAddressConfirm": user.emailVerified,
      "authData": linked.isEmpty ? WireResponse.null : linked,
      "createDate": dateText(user.createdAt), "updateDate": dateText(user.updatedAt),
      "acl": ["*": ["read": true], user.id: ["read": true, "write": true]],
    ]
  }

  /// `authData` keys for the account's providers (the store keeps no per-provider ids,
  /// so entries are empty objects here).
  private static func authDataKeys(_ user: UserRecord) -> [String: Any] {
    var linked: [String: Any] = [:]
    for provider in user.providers {
      switch provider {
      case "anonymous": linked["anonymous"] = [String: Any]()
      case "apple.com": linked["apple"] = [String: Any]()
      default: break
      }
    }
    return linked
  }
}
