import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

/// The Firestore REST v1 subset for per-user documents (`docs/wire/firestore.md`), over the
/// same ``AccountDatabase/UserStore`` as the Firebase Auth handler: the documents
/// `users/{uid}` only, under the one owner rule the repository's `firestore.rules` ships.
///
/// Paths, under `/v1/projects/{project}/databases/(default)/documents` (also behind a
/// `/firestore.googleapis.com` prefix; only the handler's ``projectID``, see `ProjectScope`):
/// - `GET /users/{uid}`; `POST /users?documentId={uid}` (create; 409 `ALREADY_EXISTS`);
///   `PATCH /users/{uid}` with repeated `updateMask.fieldPaths` (merge: a listed path absent
///   from the body is removed) or without (replace), and `currentDocument.exists=true|false`
///   (404 `NOT_FOUND` "No document to update: …" / 409); `DELETE /users/{uid}` (200 `{}`,
///   also when missing);
/// - `POST …/documents:commit` with `writes[]` (`update` + `updateMask` + `currentDocument`
///   + `updateTransforms` `setToServerValue: REQUEST_TIME`, or `delete`), all applied
///   atomically at one time, answering `writeResults[]` and `commitTime`.
///
/// Auth: `Authorization: Bearer <ID token>` is verified like the Auth handler's tokens (an
/// invalid, expired or revoked token is 401 `UNAUTHENTICATED`); `Bearer owner` is the admin
/// credential and bypasses the rule; no token means `request.auth == null`. The rule:
/// read, create, update and delete of `users/{uid}` only when `request.auth.uid == uid`,
/// else 403 `PERMISSION_DENIED`, checked before the document is looked at. Other paths are
/// 404 `NOT_FOUND` (this emulator holds no other collection). Values are
/// ``FirestoreValueCoding``; documents exist only beside accounts and are deleted with them.
public struct FirestoreHandler: Sendable {
  /// The accounts and their documents.
  public let store: UserStore
  /// The project ID ID tokens must carry (`aud`, `iss`), as for the Auth handler.
  public let projectID: String
  /// Verifies signed ID tokens too when the Auth handler signs them.
  public let signing: FirebaseTokenSigning?

  /// A handler over `store`, accepting the ID tokens the Auth handler for `projectID` mints.
  public init(
    store: UserStore, projectID: String = "demo-project", signing: FirebaseTokenSigning? = nil
  ) {
    self.store = store
    self.projectID = projectID
    self.signing = signing
  }

  /// Whether `request` is a Firestore request (`/v1/projects/…/databases/…`).
  public static func handles(_ request: HTTPRequest) -> Bool {
    FirestorePath(request.rawPath) != nil
  }

  /// Answers one request; never throws (errors are Firestore error bodies).
  /// A path naming a project other than ``projectID``, or a database other than
  /// `(default)`, is 404 `NOT_FOUND` naming the configured project.
  ///
  /// The store's calls run through ``AccountDatabase/UserStore/waitingOffPool(_:)``: on a
  /// file store, whose statements may wait for another process's lock, off the
  /// cooperative pool; on an in-memory one, inline.
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    await store.waitingOffPool { answer(request) }
  }

  /// ``handle(_:)`` on the calling thread.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    if let refusal = ProjectScope.refusal(request, projectID: projectID) { return refusal }
    do {
      return try respond(to: request)
    } catch {
      return error.response
    }
  }

  /// Who is asking.
  enum Caller: Equatable {
    /// `Bearer owner`: bypasses the rules.
    case admin
    /// A verified ID token's user.
    case user(String)
    /// No credential: `request.auth == null`.
    case anonymous

    /// The owner rule: `request.auth != null && request.auth.uid == uid`.
    func mayAccess(_ uid: String) -> Bool {
      switch self {
      case .admin: true
      case .user(let id): id == uid
      case .anonymous: false
      }
    }
  }

  private func respond(to request: HTTPRequest) throws(FirestoreError) -> HTTPResponse {
    guard let path = FirestorePath(request.rawPath) else {
      throw .noRoute(request.method, request.rawPath)
    }
    let caller = try self.caller(request)
    let query = FormURLEncoding.pairs(request.rawQuery ?? "", plusIsSpace: true)
    switch (request.method, path.target) {
    case (.post, .commit):
      return try FirestoreCommit(handler: self, path: path).commit(request.body, caller: caller)
    case (.post, .collection):
      guard let uid = query.last(where: { $0.0 == "documentId" })?.1, !uid.isEmpty else {
        throw .invalidArgument(
          "This emulator creates users/{uid} documents with ?documentId={uid} only.")
      }
      let body = try Self.body(request.body)
      let fields = try FirestoreValueCoding.decodeFields(body["fields"], path: "fields")
      try authorize(caller, uid)
      let write = DocumentWrite.replace(
        userID: uid, fields: fields, serverTimestamps: [], precondition: .missing)
      let document = try apply([write], path: path).documents[0]!
      return WireResponse.json(200, encode(document, path: path))
    case (.get, .document(let uid)):
      try authorize(caller, uid)
      guard let document = try storeCall({ try store.document(userID: uid) }) else {
        throw .notFound("Document \"\(path.name(uid))\" not found.")
      }
      return WireResponse.json(200, encode(document, path: path))
    case (.patch, .document(let uid)):
      let body = try Self.body(request.body)
      let fields = try FirestoreValueCoding.decodeFields(body["fields"], path: "fields")
      let mask = query.filter { $0.0 == "updateMask.fieldPaths" }.map(\.1)
      let write = try Self.write(
        uid: uid, fields: fields, mask: mask.isEmpty ? nil : mask, transforms: [],
        precondition: try Self.precondition(query))
      try authorize(caller, uid)
      let document = try apply([write], path: path).documents[0]!
      return WireResponse.json(200, encode(document, path: path))
    case (.delete, .document(let uid)):
      try authorize(caller, uid)
      _ = try apply([.delete(userID: uid, precondition: try Self.precondition(query))], path: path)
      return WireResponse.json(200, [:])
    case (_, .document(let uid)) where uid.isEmpty:
      throw .invalidArgument("A document name needs a document ID.")
    default:
      throw .noRoute(request.method, request.rawPath)
    }
  }

  /// The caller from `Authorization`.
  func caller(_ request: HTTPRequest) throws(FirestoreError) -> Caller {
    guard let header = request.headerFields["Authorization"], !header.isEmpty else {
      return .anonymous
    }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .unauthenticated }
    let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
    if token == "owner" { return .admin }
    let tokens = FirebaseTokens(store: store, projectID: projectID, signing: signing)
    do {
      return .user(try tokens.verify(idToken: token).user.id)
    } catch {
      throw .unauthenticated
    }
  }

  /// Throws 403 unless the owner rule lets `caller` reach `users/{uid}`.
  func authorize(_ caller: Caller, _ uid: String) throws(FirestoreError) {
    guard caller.mayAccess(uid) else { throw .permissionDenied }
  }

  /// Applies writes in the store, mapping its refusals to Firestore errors.
  func apply(_ writes: [DocumentWrite], path: FirestorePath) throws(FirestoreError)
    -> DocumentCommit
  {
    do {
      return try store.writeDocuments(writes)
    } catch DocumentStoreError.notFound(let uid) {
      throw .notFound("No document to update: \(path.name(uid))")
    } catch DocumentStoreError.alreadyExists(let uid) {
      throw .alreadyExists(path.name(uid))
    } catch DocumentStoreError.noSuchAccount(let uid) {
      throw FirestoreError(
        code: 400,
        message: "\(path.name(uid)): this emulator keeps a users/{uid} document only beside "
          + "the account {uid}, and there is none.",
        status: "FAILED_PRECONDITION")
    } catch let error as UserBackendError {
      throw .invalidArgument(error.message)
    } catch {
      throw FirestoreError(code: 500, message: "\(error)", status: "INTERNAL")
    }
  }

  func storeCall<T>(_ body: () throws -> T) throws(FirestoreError) -> T {
    do {
      return try body()
    } catch {
      throw FirestoreError(code: 500, message: "\(error)", status: "INTERNAL")
    }
  }

  /// The REST document: `name`, `fields` (omitted when empty), `createTime`, `updateTime`.
  func encode(_ document: StoredDocument, path: FirestorePath) -> [String: Any] {
    var json: [String: Any] = [
      "name": path.name(document.userID),
      "createTime": DocumentTimestamp.rfc3339(document.createTime) ?? "",
      "updateTime": DocumentTimestamp.rfc3339(document.updateTime) ?? "",
    ]
    if !document.fields.isEmpty {
      json["fields"] = FirestoreValueCoding.encodeFields(document.fields)
    }
    return json
  }

  /// A JSON object body (empty is `{}`); a number `-0` reads as the double `-0.0`
  /// (``FirestoreNegativeZero``). Refused first with 400 `INVALID_ARGUMENT` naming the
  /// field (``UserBackendKit/JSONTextCheck``): two names of one object that are the same
  /// text in other bytes (canonically equivalent; Firestore keeps both, a Swift dictionary
  /// one), and a number a double cannot hold (`1e400`, or `1e-400`, which would read as 0).
  static func body(_ data: Data) throws(FirestoreError) -> [String: Any] {
    if let problem = JSONTextCheck.firstProblem(data) {
      throw .invalidArgument(
        "Invalid value at '\(JSONTextCheck.firestoreFieldPath(problem.path))': "
          + "\(problem.reason).")
    }
    guard let object = WireObject.parse(FirestoreNegativeZero.spelledAsDouble(data)) else {
      throw .invalidArgument("Invalid JSON payload received: the body is not a JSON object.")
    }
    return object.fields
  }

  /// `currentDocument.exists` from the query.
  static func precondition(_ query: [(String, String)]) throws(FirestoreError)
    -> DocumentWrite.Precondition
  {
    if query.contains(where: { $0.0 == "currentDocument.updateTime" }) {
      throw .invalidArgument("This emulator supports the currentDocument.exists precondition only.")
    }
    guard let exists = query.last(where: { $0.0 == "currentDocument.exists" })?.1 else {
      return .none
    }
    switch exists {
    case "true": return .exists
    case "false": return .missing
    default:
      throw .invalidArgument(
        "Invalid value at 'current_document.exists' (TYPE_BOOL), \"\(exists)\"")
    }
  }

  /// A write of `fields` to `users/{uid}`: with a mask, a merge of the listed paths (a
  /// listed path absent from `fields` is removed); without, a replace.
  static func write(
    uid: String, fields: [String: DocumentValue], mask: [String]?, transforms: [String],
    precondition: DocumentWrite.Precondition
  ) throws(FirestoreError) -> DocumentWrite {
    var timestamps: [DocumentFieldPath] = []
    for text in transforms {
      guard let path = FirestoreFieldPath.parse(text) else {
        throw .invalidArgument("Invalid field path in transform: \(text)")
      }
      timestamps.append(path)
    }
    guard let mask else {
      return .replace(
        userID: uid, fields: fields, serverTimestamps: timestamps, precondition: precondition)
    }
    var setting: [DocumentFieldPath: DocumentValue] = [:]
    var removing: [DocumentFieldPath] = []
    for text in mask {
      guard let path = FirestoreFieldPath.parse(text) else {
        throw .invalidArgument("Invalid field path in updateMask: \(text)")
      }
      if let value = FirestoreValueCoding.value(at: path, in: fields) {
        setting[path] = value
      } else {
        removing.append(path)
      }
    }
    return .merge(
      userID: uid, setting: setting, removing: removing, serverTimestamps: timestamps,
      precondition: precondition)
  }
}

/// A Firestore URL path: `/v1/projects/{project}/databases/{database}/documents…`.
struct FirestorePath {
  /// What the path addresses.
  enum Target: Equatable {
    /// `…/documents:commit`.
    case commit
    /// `…/documents/users`.
    case collection
    /// `…/documents/users/{uid}`.
    case document(String)
    /// Any other path under `documents`.
    case other
  }

  /// The project ID.
  var project: String
  /// The database ID (`(default)`).
  var database: String
  /// What it addresses.
  var target: Target

  /// `projects/{project}/databases/{database}/documents`.
  var root: String { "projects/\(project)/databases/\(database)/documents" }

  /// The resource name of `users/{uid}`.
  func name(_ uid: String) -> String { "\(root)/users/\(uid)" }

  /// Parses a raw (percent-encoded) path; `nil` when it is not a Firestore path.
  init?(_ rawPath: String) {
    var segments = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
      .map { String($0).removingPercentEncoding ?? String($0) }
    if segments.first == "firestore.googleapis.com" { segments.removeFirst() }
    guard segments.count >= 5, segments[0] == "v1", segments[1] == "projects",
      !segments[2].isEmpty, segments[3] == "databases"
    else { return nil }
    project = segments[2]
    let rest = segments.dropFirst(4)
    guard let databaseSegment = rest.first else { return nil }
    if rest.count == 2, rest.last == "documents:commit" {
      database = databaseSegment
      target = .commit
      return
    }
    database = databaseSegment
    let documentPath = Array(rest.dropFirst())
    guard documentPath.first == "documents" else {
      target = .other
      return
    }
    switch Array(documentPath.dropFirst()) {
    case ["users"]: target = .collection
    case let parts where parts.count == 2 && parts[0] == "users": target = .document(parts[1])
    default: target = .other
    }
  }

  /// The `users/{uid}` of a resource name under this path's database, or `nil`.
  func uid(ofName name: String) -> String? {
    let prefix = root + "/users/"
    guard name.hasPrefix(prefix) else { return nil }
    let uid = String(name.dropFirst(prefix.count))
    return uid.isEmpty || uid.contains("/") ? nil : uid
  }
}
