import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

/// A user object's own (custom) fields and its ACL (`docs/wire/ncmb.md` "User fields"):
/// the fields are the account's document in the same store the Firestore handler serves,
/// so one store serves both protocols.
///
/// - Values: JSON strings, numbers (integers without a fraction or exponent, else doubles),
///   booleans, `null`, arrays, objects, and `{"__type":"Date","iso":"…Z"}` (written with
///   milliseconds). Answers write each number in its kind (``KindKeepingJSON``: `2.0`
///   stays `2.0`, `-0.0` keeps its sign). `{"__op":"Delete"}` removes a field. Other `__type`s and `__op`s
///   (pointers, relations, increments, …) are `E400002` naming the field.
/// - `displayName` and `photoURL` (the fields the adapters read as the profile) are custom
///   fields like any other, as on the service, which has no rule of its own for them: any
///   text of any length (within the document limits) and any JSON type is stored as sent.
///   The adapter drops one it cannot use when it reads the user (one over the client's
///   limit, another type). Before, the emulator applied the client library's profile rule
///   here and answered a long name with an `E400009` the service never sends, which hid
///   that such a name, set by another NCMB client, locked the account out of the library.
/// - Reserved names are never document fields: `objectId`, `createDate`, `updateDate`,
///   `acl`, `authData`, `sessionToken`, `mailAddressConfirm`, `userName`, `mailAddress`,
///   `password` (the user endpoints handle them) and `_id` (refused, `E400002`).
/// - ACL: `PUT` with `"acl"` stores it; `GET` answers it. A `GET` by anyone the ACL gives
///   no read (neither `"*"` nor their `objectId`) is 404 `E404001`, the documented error of
///   "Get user": a hidden object looks absent, as in the data store, instead of a 403 that
///   would confirm it exists. Writes stay owner-only (`E403001`, ``NCMBHandler``).
extension NCMBHandler {
  /// Names the user endpoints own; never document fields.
  static let reservedUserFields: Set<String> = [
    "objectId", "createDate", "updateDate", "acl", "authData", "sessionToken",
    "mailAddressConfirm", "userName", "mailAddress", "password", "_id",
  ]

  /// The parsed custom part of a `PUT users/{id}` body.
  struct UserFieldWrite {
    var setting: [String: DocumentValue] = [:]
    var removing: Set<String> = []
    /// The ACL JSON text to store, when the body has `acl`.
    var acl: String?
  }

  /// Parses and checks the custom fields and the ACL of a body, before anything is
  /// written.
  func userFieldWrite(_ body: WireObject) throws(NCMBError) -> UserFieldWrite {
    var write = UserFieldWrite()
    if body.has("_id") { throw NCMBError("E400002", "_id is invalid type.") }
    if let acl = body.fields["acl"] {
      guard let object = acl as? [String: Any],
        object.values.allSatisfy({ entry in
          guard let rights = entry as? [String: Any] else { return false }
          return rights.keys.allSatisfy { $0 == "read" || $0 == "write" }
            && rights.values.allSatisfy { JSONBoolean.value($0) != nil }
        }),
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      else { throw .wrongType("acl") }
      write.acl = String(decoding: data, as: UTF8.self)
    }
    for (name, raw) in body.fields where !Self.reservedUserFields.contains(name) {
      if let op = (raw as? [String: Any])?["__op"] {
        guard op as? String == "Delete" else { throw .wrongType(name) }
        write.removing.insert(name)
      } else {
        write.setting[name] = try Self.documentValue(raw, field: name)
      }
    }
    do {
      // The service stores an array directly inside an array (`[[1,2]]`); only Firestore
      // refuses one, so only the NCMB adapter (for portability) and the Firestore wire do.
      try DocumentValidation.validateUpdate(
        setting: write.setting, removing: write.removing, allowingArraysInArrays: true)
    } catch {
      throw NCMBError("E400002", "\(error.message)")
    }
    return write
  }

  /// Stores a parsed write for `userID` (the ACL, then the fields).
  func apply(_ write: UserFieldWrite, userID: String) throws(NCMBError) {
    if let acl = write.acl { try ncmbStore { try store.setUserACL(userID: userID, json: acl) } }
    guard !write.setting.isEmpty || !write.removing.isEmpty else { return }
    do {
      _ = try store.updateDocument(
        userID: userID, setting: write.setting, removing: write.removing,
        allowingArraysInArrays: true)
    } catch let error as UserBackendError {
      throw NCMBError("E400002", error.message)
    } catch {
      throw NCMBError.from(error)
    }
  }

  /// Adds the custom fields and the stored ACL of `user` to a user object answer.
  func addingUserFields(_ answer: [String: Any], userID: String) throws(NCMBError)
    -> [String: Any]
  {
    var result = answer
    let document = try ncmbStore { try store.document(userID: userID) }
    for (name, value) in document?.fields ?? [:] where !Self.reservedUserFields.contains(name) {
      result[name] = Self.json(value)
    }
    if let acl = try storedACL(userID) { result["acl"] = acl }
    // A field write changes the user object: its updateDate is the later of the
    // account's and the fields' last change.
    if let document, let user = try ncmbStore({ try store.user(id: userID) }),
      document.updateTime > user.updatedAt
    {
      result["updateDate"] = Self.dateText(document.updateTime)
    }
    return result
  }

  /// Throws `E404001` unless the stored ACL of `userID` lets the requester read.
  func checkReadable(userID: String, _ context: NCMBRequestContext) throws(NCMBError) {
    guard let acl = try storedACL(userID) else { return }
    let readers = acl.filter {
      JSONBoolean.value(($0.value as? [String: Any])?["read"]) == true
    }.keys
    guard readers.contains("*") || context.sessionUserID.map(readers.contains) == true else {
      throw .noData
    }
  }

  private func storedACL(_ userID: String) throws(NCMBError) -> [String: Any]? {
    guard let text = try ncmbStore({ try store.userACL(userID: userID) }) else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
  }

  /// A JSON value of an NCMB body as a document value.
  static func documentValue(_ raw: Any, field: String) throws(NCMBError) -> DocumentValue {
    switch raw {
    case is NSNull: return .null
    case let text as String: return .string(text)
    case let list as [Any]:
      var values: [DocumentValue] = []
      for element in list { values.append(try documentValue(element, field: field)) }
      return .array(values)
    case let object as [String: Any]:
      if let type = object["__type"] {
        guard type as? String == "Date", object.count == 2, let iso = object["iso"] as? String,
          let micros = DocumentTimestamp.parseMicroseconds(iso)
        else { throw .wrongType(field) }
        return .timestamp(DocumentTimestamp.date(microseconds: micros))
      }
      var fields: [String: DocumentValue] = [:]
      for (name, value) in object { fields[name] = try documentValue(value, field: field) }
      return .map(fields)
    case let number as NSNumber:
      if JSONBoolean.isBoolean(number) { return .bool(number.boolValue) }
      // JSONSerialization reads -9223372036854775808 (Int64.min) as an NSDecimalNumber,
      // whose Objective-C type is `d`: an integer written without fraction stays one.
      if let decimal = number as? NSDecimalNumber, let integer = Int64(decimal.stringValue) {
        return .integer(integer)
      }
      if String(cString: number.objCType) != "d", let integer = Int64(exactly: number) {
        return .integer(integer)
      }
      return .double(number.doubleValue)
    default:
      throw .wrongType(field)
    }
  }

  /// A document value as NCMB JSON (timestamps as `Date` objects with milliseconds).
  static func json(_ value: DocumentValue) -> Any {
    switch value {
    case .string(let text): text
    case .integer(let number): number
    case .double(let number): number.isFinite ? number : NSNull()
    case .bool(let flag): flag
    case .null, .serverTimestamp: NSNull()
    case .timestamp(let date): ["__type": "Date", "iso": isoMilliseconds(date)]
    case .array(let values): values.map(json)
    case .map(let fields): fields.mapValues(json)
    }
  }

  /// `2013-08-09T07:37:54.869Z`: UTC, milliseconds (truncated).
  static func isoMilliseconds(_ date: Date) -> String {
    let micros = DocumentTimestamp.microseconds(of: date) ?? 0
    let text = DocumentTimestamp.rfc3339(microseconds: micros - ((micros % 1000) + 1000) % 1000)
    return String(text.dropLast(4)) + "Z"
  }
}
