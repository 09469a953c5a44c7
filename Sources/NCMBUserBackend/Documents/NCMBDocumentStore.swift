import AdapterSupport
import BackendHTTP
import Foundation
import UserBackendKit

/// The user documents of an ``NCMBUserBackend``: the custom fields of the user object
/// itself (`GET`/`PUT /2013-09-01/users/{objectId}` with the session token;
/// docs/wire/ncmb.md, "User fields as the user's document").
///
/// - **Fields**: every member of the user object except the service's own (`objectId`,
///   `createDate`, `updateDate`, `acl`, `authData`, `sessionToken`,
///   `mailAddressConfirm`, `userName`, `mailAddress`, `password`, `_id`), the profile
///   fields `displayName` and `photoURL` and this store's two markers. Writing one of those names is `.invalidInput(field: "fields.<name>")`
///   before any request.
/// - **Existence** (decided by the data, as Firestore and the fake decide it): the
///   document exists when the user object has a field (any member outside the reserved
///   names above) or the marker ``createDateField``. Another client (an NCMB SDK app the
///   team migrates from) may have filled the object first: those fields are the document,
///   and a create answers it unchanged (`created: false`). `createTime` is the marker (an
///   NCMB `Date`), or, for a document another client wrote, the object's `createDate`
///   (the earliest time its fields can have been written). A create writes the marker; an
///   update of a document without one writes that `createTime` as the marker, so the
///   document keeps existing when the update removes its last field and its `createTime`
///   never changes. Delete removes every field and both markers.
/// - **Unreadable object**: an update or a delete reads the object first; when the
///   answer is the user's own object but this client cannot read it (another client wrote
///   one name in two spellings, a `Date` without a valid `iso`, a marker that is not a
///   `Date`), the write is still sent, naming the members in their own bytes from the
///   answer's text: removing or replacing the member repairs the document, and a delete
///   removes every field. The update then reads the document back, which throws the read's
///   `.malformedResponse` while the damage remains. Reads and creates still throw it.
/// - **ACL**: a create (or an update that creates) on an object without fields writes the
///   owner-only ACL `{"<objectId>": {"read": true, "write": true}}` with the fields: the
///   port promises owner-only documents, and the fields (`email` among them) would
///   otherwise be as readable as the app's default ACL for users makes them. A document
///   another client wrote keeps its ACL: that client chose who reads its fields, and
///   narrowing it would break its reads (widening is never done). Delete leaves the ACL.
/// - **Server timestamp**: NCMB has no server-side time transform; a
///   ``DocumentValue/serverTimestamp`` (and the marker) is the client's clock, the clock
///   that also stamps `X-NCMB-Timestamp`. `updateTime` is the server's `updateDate`.
/// - **Create if absent**: NCMB has no conditional write. Creates in one process are
///   serialised (so of two concurrent creates in one process exactly one answers
///   `created: true`); each create reads the object, writes the fields with a random
///   nonce in ``nonceField``, and reads the object back: only the caller whose nonce is
///   stored answers `created: true` (the markers only break ties between this adapter's
///   own creates; existence is the data's). Two devices that read "absent" at the same moment both
///   write (the last write's fields win), and if the first reads back before the second
///   writes, both answer `created: true`: the wire protocol cannot exclude that.
/// - **Answers name the object**: a read answer must carry the requested `objectId`, and a
///   write answer that carries an `objectId` must carry that one; otherwise
///   `.malformedResponse` (never shown as the user's document).
/// - **Another user's ID**: the request is sent; the service's ACL answers `E403001`
///   (write) or `E404001` (read of a hidden object), both `.permissionDenied`. A read the
///   service allows (a user object readable by everyone) is refused here with
///   `.permissionDenied` all the same, as the port promises owner-only documents.
struct NCMBDocumentStore: UserDocumentStore {
  let backend: NCMBUserBackend

  /// The marker of an existing document: its creation time, an NCMB `Date`.
  static let createDateField = "documentCreateDate"
  /// The nonce of the create that wrote the document.
  static let nonceField = "documentCreateNonce"
  /// The user object's members that are not document fields: the service's own, the
  /// profile fields ``NCMBUserBackend/updateProfile(displayName:photoURL:)`` keeps on the
  /// user object (`displayName`, `photoURL`), and the document's markers.
  /// The shared ``DocumentValidation/reservedFieldNames``, which list them all.
  static let reservedFields: Set<String> = DocumentValidation.reservedFieldNames

  /// Serialises creates in this process.
  private static let creations = AsyncGate()

  func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
    let target = try Self.checkedUserID(userID)
    let session = try await backend.requireSession()
    return try await read(target ?? session.user.id, session: session).document
  }

  func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  {
    let target = try Self.checkedUserID(userID)
    try Self.check(fields: fields, removing: [])
    let session = try await backend.requireSession()
    let uid = target ?? session.user.id
    await Self.creations.acquire()
    do {
      let result = try await create(uid: uid, fields: fields, session: session)
      await Self.creations.release()
      return result
    } catch {
      await Self.creations.release()
      throw error
    }
  }

  func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument {
    let target = try Self.checkedUserID(userID)
    try Self.check(fields: fields, removing: removing)
    let session = try await backend.requireSession()
    let uid = target ?? session.user.id
    var members = encoded(fields)
    for name in removing { members[name] = #"{"__op":"Delete"}"# }
    // A document this client cannot read (another client wrote one name in two spellings,
    // or a member it cannot decode) is still updated: the update may be the repair (it
    // removes or replaces the member); the read after it says whether it worked.
    let exists: Bool
    let marked: Bool
    let createTime: Date?
    switch try await inspect(uid, session: session) {
    case .readable(let before):
      (exists, marked, createTime) = (
        before.document != nil, before.marked, before.document?.createTime
      )
    case .unreadable(_, let object):
      (exists, marked, createTime) = (object.holdsDocument, object.marked, object.createDate)
    }
    if exists {
      // A document another client wrote: keep its createTime (and its ACL) and mark it,
      // so that it still exists when this update removes its last field.
      if !marked, let createTime {
        members[Self.createDateField] = NCMBDocumentCoding.dateJSON(createTime)
      }
    } else {
      members.merge(creationMembers(uid: uid)) { _, new in new }
    }
    try await write(NCMBDocumentCoding.object(members), uid: uid, session: session)
    guard let document = try await read(uid, session: session).document else {
      throw UserBackendError(
        .server(
          status: 404, code: nil, message: "the document was deleted right after the update"))
    }
    return document
  }

  func deleteDocument(userID: String?) async throws(UserBackendError) {
    let target = try Self.checkedUserID(userID)
    let session = try await backend.requireSession()
    let uid = target ?? session.user.id
    let names: [String]
    switch try await inspect(uid, session: session) {
    case .readable(let current):
      guard let document = current.document else { return }
      names = document.fields.keys.sorted()
    case .unreadable(_, let object):
      // Every field in its own bytes (both spellings of one name), also one this client
      // cannot decode: a delete removes what cannot be read.
      guard object.holdsDocument else { return }
      names = object.fieldNames
    }
    let delete = #"{"__op":"Delete"}"#
    let members = (names + [Self.createDateField, Self.nonceField]).map { ($0, delete) }
    try await write(NCMBDocumentCoding.object(pairs: members), uid: uid, session: session)
  }

  // MARK: Steps

  private func create(uid: String, fields: [String: DocumentValue], session: AuthSession)
    async throws(UserBackendError) -> DocumentCreation
  {
    if let existing = try await read(uid, session: session).document {
      return DocumentCreation(document: existing, created: false)
    }
    // From the backend's UUID source: random in production, seeded in recordings, so a
    // recorded create replays byte for byte.
    let nonce = backend.makeUUID().uuidString
    var members = encoded(fields)
    members.merge(creationMembers(uid: uid)) { _, new in new }
    members[Self.nonceField] = NCMBDocumentCoding.string(nonce)
    try await write(NCMBDocumentCoding.object(members), uid: uid, session: session)
    let after = try await read(uid, session: session)
    guard let document = after.document else {
      throw UserBackendError(
        .server(
          status: 404, code: nil, message: "the document was deleted right after its creation"))
    }
    return DocumentCreation(document: document, created: after.nonce == nonce)
  }

  /// The marker and the owner-only ACL.
  private func creationMembers(uid: String) -> [String: String] {
    [
      Self.createDateField: NCMBDocumentCoding.dateJSON(backend.client.clock.now()),
      "acl": NCMBDocumentCoding.object([
        uid: NCMBDocumentCoding.object(["read": "true", "write": "true"])
      ]),
    ]
  }

  private func encoded(_ fields: [String: DocumentValue]) -> [String: String] {
    let now = backend.client.clock.now()
    return fields.mapValues { NCMBDocumentCoding.json($0, now: now) }
  }

  /// What a read of the user object tells.
  struct ObjectState {
    /// The document: `nil` when the object has neither a field nor the marker.
    var document: UserDocument?
    /// The nonce of the create that wrote the marker.
    var nonce: String?
    /// Whether the marker ``NCMBDocumentStore/createDateField`` is present.
    var marked: Bool
  }

  /// `GET /2013-09-01/users/{uid}`: the document (present when the object has a field or
  /// the marker), the nonce and whether the marker is there.
  /// - Throws: as the read, also `.malformedResponse` for an object it cannot read.
  private func read(_ uid: String, session: AuthSession) async throws(UserBackendError)
    -> ObjectState
  {
    switch try await inspect(uid, session: session) {
    case .readable(let state): return state
    case .unreadable(let error, _): throw error
    }
  }

  /// `GET /2013-09-01/users/{uid}`, read for a write: the state, or (for the requested
  /// user's own object whose members this client cannot read) the error and the members'
  /// names in their own bytes, so a removal or delete can still name them.
  private func inspect(_ uid: String, session: AuthSession) async throws(UserBackendError)
    -> Inspection
  {
    let endpoint = try NCMBUserID.endpoint(.get, userID: uid, name: "user document read")
    let answer = try await send(endpoint, uid: uid, session: session)
    do {
      return .readable(try state(of: answer, uid: uid, session: session))
    } catch {
      guard case .malformedResponse = error.code,
        let object = UnreadableObject(answer.body, uid: uid, session: session)
      else { throw error }
      return .unreadable(error, object)
    }
  }

  /// The state a read answer tells.
  private func state(of answer: NCMBAnswer, uid: String, session: AuthSession)
    throws(UserBackendError) -> ObjectState
  {
    // Two member names that are the same text in other bytes (the service keeps both, a
    // Swift dictionary one) or a number a double cannot hold: refused naming the field,
    // never merged or read as 0.
    if let problem = JSONTextCheck.firstProblem(answer.body) {
      throw NCMBClient.malformed(
        "user document read", "at field \(JSONTextCheck.dotted(problem.path)): \(problem.reason)")
    }
    guard uid == session.user.id else {
      throw UserBackendError(
        .permissionDenied,
        message: "the server let another user's object be read; documents are owner-only")
    }
    guard
      let object = try? JSONSerialization.jsonObject(with: answer.body, options: [])
        as? [String: Any]
    else {
      throw NCMBClient.malformed("user document read", "is not a JSON object")
    }
    // The service always answers a user object with its objectId: an answer without it, or
    // with another one, is not the requested user's object.
    guard object["objectId"] as? String == uid else {
      throw NCMBClient.malformed(
        "user document read", "does not name the requested user (objectId missing or another)")
    }
    var fields: [String: DocumentValue] = [:]
    for (name, value) in object where !Self.reservedFields.contains(name) {
      fields[name] = try NCMBDocumentCoding.value(value, field: name)
    }
    let created: Date?
    if let marker = object[Self.createDateField] {
      guard
        case .timestamp(let date) = try NCMBDocumentCoding.value(
          marker, field: Self.createDateField)
      else {
        throw NCMBClient.malformed(
          "user document read", "has a \(Self.createDateField) that is not a Date")
      }
      created = date
    } else if fields.isEmpty {
      return ObjectState(document: nil, nonce: nil, marked: false)
    } else {
      // Fields another client wrote: they were written after the account was created.
      created = (object["createDate"] as? String).flatMap(DocumentTimestamp.parse)
    }
    let updated = (object["updateDate"] as? String).flatMap(DocumentTimestamp.parse)
    return ObjectState(
      document: UserDocument(userID: uid, fields: fields, createTime: created, updateTime: updated),
      nonce: object[Self.nonceField] as? String,
      marked: object[Self.createDateField] != nil)
  }

  /// `PUT /2013-09-01/users/{uid}` with `body`, the JSON object of the members.
  private func write(_ body: String, uid: String, session: AuthSession)
    async throws(UserBackendError)
  {
    let endpoint = try NCMBUserID.endpoint(
      .put, userID: uid, body: Data(body.utf8), name: "user document write")
    let answer = try await send(endpoint, uid: uid, session: session)
    // The service answers `{"updateDate"}`; an answer naming another object is not about
    // this one (the same rule as the profile update's answer).
    if !answer.body.isEmpty,
      let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
      let objectId = object["objectId"], objectId as? String != uid
    {
      throw NCMBClient.malformed("user document write", "answered for another user")
    }
  }

  /// Sends with the session token. `E403001` (the ACL refused) is `.permissionDenied`; for
  /// another user's ID so is any `E404…` (the object is hidden from this user); the codes
  /// that reject the session token clear the session (`.sessionExpired`).
  private func send(_ endpoint: NCMBEndpoint, uid: String, session: AuthSession)
    async throws(UserBackendError) -> NCMBAnswer
  {
    let token = session.bearerToken
    do {
      return try await backend.client.send(endpoint, sessionToken: token)
    } catch let error as NCMBServerError {
      let code = BackendErrorCode(rawValue: error.code)
      if error.code == "E403001" || (uid != session.user.id && error.code.hasPrefix("E404")) {
        throw UserBackendError(.permissionDenied, backendCode: code, message: error.message ?? "")
      }
      if NCMBErrorMapping.sessionRejectionCodes.contains(error.code) {
        try await backend.revoke(sessionToken: token)
      }
      throw NCMBUserBackend.mapped(error, sentSessionToken: true)
    } catch {
      throw NCMBUserBackend.mapped(error)
    }
  }

  // MARK: Input checks

  /// A given user ID checked with the shared rule
  /// (``UserBackendKit/CredentialValidation/validateUserID(_:field:)``, as the Firebase
  /// adapter and the CLI check it) and an objectId's characters; `nil` stays `nil` (the signed-in user, whose stored ID
  /// ``NCMBUserID/endpoint(_:userID:body:name:)`` checks when the request is built).
  /// - Throws: `.invalidInput(field: "userID")`, before any request.
  static func checkedUserID(_ userID: String?) throws(UserBackendError) -> String? {
    guard let userID else { return nil }
    return try NCMBUserID.checkGiven(userID)
  }

  /// The shared checks (``DocumentValidation``, with the reserved names; they refuse every
  /// name starting with `__`, which the service reads as `__type` and `__op`), then NCMB's:
  /// only finite doubles (JSON has no NaN or infinity).
  /// - Throws: `.invalidInput(field:)` with the value's path (`"fields.<name>"`,
  ///   `"fields.<name>.<key>"`, `"fields.<name>[<index>]"`).
  static func check(fields: [String: DocumentValue], removing: Set<String>)
    throws(UserBackendError)
  {
    try DocumentValidation.validateUpdate(
      setting: fields, removing: removing, reserved: reservedFields, unremovable: reservedFields)
    func invalid(_ path: String, _ reason: String) -> UserBackendError {
      UserBackendError(.invalidInput(field: path, reason: reason))
    }
    func checkValue(_ value: DocumentValue, path: String) throws(UserBackendError) {
      switch value {
      case .double(let number) where !number.isFinite:
        throw invalid(path, "NCMB cannot store NaN or infinity")
      case .map(let entries):
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
          try checkValue(entry, path: path + "." + key)
        }
      case .array(let values):
        for (index, entry) in values.enumerated() {
          try checkValue(entry, path: "\(path)[\(index)]")
        }
      default: break
      }
    }
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      try checkValue(value, path: "fields." + name)
    }
  }
}
