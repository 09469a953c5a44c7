import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

/// The admin calls of the Firebase Auth Emulator that the emulator's web page uses, as
/// the Admin SDKs send them: `POST` with `Authorization: Bearer owner`, at
/// `…/identitytoolkit.googleapis.com/v1/projects/{id}/accounts:NAME` (the emulator's project
/// ID only, see `ProjectScope`) or
/// `…/v1/accounts:NAME`, no API key needed.
///
/// - `accounts:query` `{"returnUserInfo"?, "limit"?, "offset"?, "sortBy"?, "order"?}` →
///   `{"recordsCount":"N","userInfo":[…]}`: every account (`recordsCount` counts all of
///   them), each as an `accounts:lookup` entry plus fields of this emulator: `userName`
///   (the NCMB user name, when the account has one), `isAnonymous`, `providers` (every
///   provider, `anonymous` included) and `createdBy` (`ncmb` when the account has a user
///   name, which only NCMB sign-ups set; else `firebase`).
///   `sortBy` `USER_ID` (default) or `CREATED_AT`, `order` `ASC` (default) or `DESC`;
///   `limit` (default and at most 500) and `offset` as numbers or decimal strings.
///   `returnUserInfo: false` gives only `recordsCount`; an `expression` is `501`.
/// - `accounts:update` `{"localId","disableUser":true|false}` → the account
///   (`MISSING_LOCAL_ID`, `USER_NOT_FOUND`). Other admin changes are `501`.
/// - `accounts:delete` `{"localId"}` → `{"kind":…}` (`MISSING_LOCAL_ID`, `USER_NOT_FOUND`).
/// - `accounts:lookup` `{"localId":[…],"email":[…],"phoneNumber":[…]}` → `{"users":[…]}`
///   (no `users` when none matched, as the emulator answers).
struct FirebaseAdminEndpoints {
  /// The admin operations served.
  enum Operation: String {
    case query, update, delete, lookup
  }

  /// The most accounts one `accounts:query` answers.
  static let maximumLimit = 500

  let handler: FirebaseAuthHandler

  /// The operation `request` asks for when it is an admin call this type serves, else `nil`.
  static func operation(of request: HTTPRequest) -> Operation? {
    guard LoopbackGuard.isAdmin(request), request.method == .post else { return nil }
    // The emulator's path-prefixed form, or the production host (in-process transport).
    let host = "identitytoolkit.googleapis.com"
    var path = request.decodedPath
    if path.hasPrefix("/\(host)/") {
      path.removeFirst(host.count + 1)
    } else if request.url.host?.lowercased() != host {
      return nil
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    // "", "v1", "accounts:NAME"  or  "", "v1", "projects", ID, "accounts:NAME"
    let last: Substring
    switch parts.count {
    case 3 where parts[1] == "v1": last = parts[2]
    case 5 where parts[1] == "v1" && parts[2] == "projects" && !parts[3].isEmpty: last = parts[4]
    default: return nil
    }
    guard last.hasPrefix("accounts:") else { return nil }
    return Operation(rawValue: String(last.dropFirst("accounts:".count)))
  }

  /// Answers an admin call; never throws (errors are Firebase error envelopes).
  func respond(to request: HTTPRequest, _ operation: Operation) -> HTTPResponse {
    do {
      return WireResponse.json(200, try answer(request, operation))
    } catch {
      return error.response
    }
  }

  private func answer(_ request: HTTPRequest, _ operation: Operation) throws(FirebaseError)
    -> [String: Any]
  {
    guard let body = WireObject.parse(request.body) else { throw .invalidJSON }
    if let field = body.firstNonBoolean(among: FirebaseAuthHandler.booleanFields) {
      throw .wrongType(field, expected: "TYPE_BOOL")
    }
    switch operation {
    case .query: return try query(body)
    case .update: return try update(body)
    case .delete: return try delete(body)
    case .lookup: return try lookup(body)
    }
  }

  private var store: UserStore { handler.store }

  private func query(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    if let expression = body.fields["expression"] as? [Any], !expression.isEmpty {
      throw .notImplemented("accounts:query with expression")
    }
    let total = try firebaseStore { try store.userCount() }
    if body.bool("returnUserInfo") == false { return ["recordsCount": String(total)] }
    let limit = try Self.count(body, "limit") ?? Self.maximumLimit
    guard (1...Self.maximumLimit).contains(limit) else {
      throw FirebaseError("INVALID_ARGUMENT", "limit must be between 1 and 500")
    }
    let offset = try Self.count(body, "offset") ?? 0
    let order: UserStore.UserListOrder
    switch body.string("sortBy") {
    case nil, "SORT_BY_FIELD_UNSPECIFIED", "USER_ID": order = .userID
    case "CREATED_AT": order = .createdAt
    case let other?: throw .notImplemented("accounts:query sortBy \(other)")
    }
    let descending = body.string("order") == "DESC"
    let users = try firebaseStore {
      try store.users(orderedBy: order, descending: descending, limit: limit, offset: offset)
    }
    return ["recordsCount": String(total), "userInfo": users.map(Self.userInfo)]
  }

  private func update(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let user = try existingUser(body)
    let served: Set<String> = ["localId", "disableUser", "returnSecureToken", "targetProjectId"]
    if let other = body.fields.keys.sorted().first(where: { !served.contains($0) }) {
      throw .notImplemented("accounts:update of \(other) as admin")
    }
    if let disable = body.bool("disableUser") {
      try firebaseStore { try store.setDisabled(userID: user.id, disable) }
    }
    guard let updated = try firebaseStore({ try store.user(id: user.id) }) else {
      throw .userNotFound
    }
    var answer = Self.userInfo(updated)
    answer["kind"] = "identitytoolkit#SetAccountInfoResponse"
    return answer
  }

  private func delete(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let user = try existingUser(body)
    guard try firebaseStore({ try store.deleteUser(id: user.id) }) else { throw .userNotFound }
    return ["kind": "identitytoolkit#DeleteAccountResponse"]
  }

  private func lookup(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    var found: [UserRecord] = []
    func add(_ user: UserRecord?) {
      if let user, !found.contains(where: { $0.id == user.id }) { found.append(user) }
    }
    for id in body.strings("localId") { add(try firebaseStore { try store.user(id: id) }) }
    for email in body.strings("email") { add(try firebaseStore { try store.user(email: email) }) }
    for phone in body.strings("phoneNumber") {
      add(try firebaseStore { try store.user(phoneNumber: phone) })
    }
    var answer: [String: Any] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
    if !found.isEmpty { answer["users"] = found.map(Self.userInfo) }
    return answer
  }

  /// The account named by `localId`.
  private func existingUser(_ body: WireObject) throws(FirebaseError) -> UserRecord {
    guard let id = body.string("localId"), !id.isEmpty else {
      throw FirebaseError("MISSING_LOCAL_ID")
    }
    guard let user = try firebaseStore({ try store.user(id: id) }) else { throw .userNotFound }
    return user
  }

  /// A non-negative whole number given as a JSON number or a decimal string; `nil` when
  /// absent.
  private static func count(_ body: WireObject, _ key: String) throws(FirebaseError) -> Int? {
    switch body.fields[key] {
    case nil, is NSNull: return nil
    case let text as String:
      if let value = DecimalText.wholeNumber(text) { return value }
    case let number as NSNumber where JSONBoolean.isNumber(number):
      if let value = Int(exactly: number.doubleValue), value >= 0 { return value }
    default: break
    }
    throw FirebaseError("INVALID_ARGUMENT", "\(key) must be a non-negative whole number")
  }

  /// An `accounts:lookup` entry for `user`, with this emulator's `userName` and
  /// `createdBy`.
  static func userInfo(_ user: UserRecord) -> [String: Any] {
    let signIn = FirebaseTokens.SignIn(
      uid: user.id, authTime: 0, provider: user.providers.first ?? "", subject: nil)
    var info = FirebaseAuthHandler.userInfo(user, signIn: signIn)
    if let name = user.username { info["userName"] = name }
    info["createdBy"] = user.username == nil ? "firebase" : "ncmb"
    info["isAnonymous"] = user.isAnonymous
    info["providers"] = user.providers
    return info
  }
}
