import AdapterSupport
import BackendHTTP
import Foundation
import UserBackendKit

/// The user documents of a ``FirebaseUserBackend`` in Cloud Firestore, over the REST API
/// (v1; docs/wire/firestore-client.md): the document `users/{uid}`.
///
/// - Every request carries `Authorization: Bearer <ID token>` from the backend's session
///   (refreshed by its ``SessionEngine`` when it is about to expire). A 401 answer forces
///   one refresh and one retry; a second 401 after a successful refresh is
///   `.server(status: 401, code: "UNAUTHENTICATED")` and the session is kept (the refresh
///   token still works, so the cause is the project, not the session). A rejected
///   refresh is `.sessionExpired` (the engine clears the session).
/// - Read: `GET …/documents/users/{uid}`; 404 `NOT_FOUND` is `nil`. The answer's `name`
///   must be the requested document's resource name
///   (`projects/{projectID}/databases/(default)/documents/users/{uid}`), else
///   `.malformedResponse`. A commit answer names no document (its write results only
///   carry times), so there is nothing to compare there; an update reads the document
///   back with a `GET`, which is checked.
/// - Create: one atomic `POST …/documents:commit` with `currentDocument.exists = false`
///   and a `REQUEST_TIME` transform per server timestamp; 409 `ALREADY_EXISTS` reads the
///   document and answers `created: false`.
/// - Update: `POST …/documents:commit` with `updateMask` (the set and removed fields, each a
///   quoted field path) and the transforms, no precondition (so it creates a missing
///   document), then a `GET` for the document after the change.
/// - Delete: `DELETE …/documents/users/{uid}`; a missing document is fine.
///
/// Another user's ID is sent as given; the project's security rules refuse it with 403
/// `PERMISSION_DENIED`, which is `.permissionDenied` (the owner-only `firestore.rules` ship
/// with the package). Errors: ``FirestoreErrorMapping``.
struct FirestoreDocumentStore: UserDocumentStore {
  let backend: FirebaseUserBackend
  let location: FirestoreLocation

  func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
    let target = try Self.checkedUserID(userID)
    return try await read(target)
  }

  func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  {
    let target = try Self.checkedUserID(userID)
    try Self.check(fields: fields, removing: [])
    let (values, stamps) = FirestoreFieldPath.split(fields)
    for _ in 0..<3 {
      let (response, uid, token) = try await exchange(operation: "commit", userID: target) {
        uid, token throws(UserBackendError) in
        try commitRequest(
          userID: uid, values: values, mask: nil, mustNotExist: true, stamps: stamps,
          token: token)
      }
      if response.isSuccess {
        let document = try await createdDocument(
          response, userID: uid, values: values, stamps: stamps)
        return DocumentCreation(document: document, created: true)
      }
      guard FirestoreErrorMapping.isEnvelope(response, status: "ALREADY_EXISTS", httpStatus: 409)
      else { throw Self.failure(response, operation: "commit", token: token) }
      if let existing = try await read(uid) {
        return DocumentCreation(document: existing, created: false)
      }
      // Deleted between the two requests: try the create again.
    }
    throw UserBackendError(
      .server(
        status: 409, code: "ALREADY_EXISTS",
        message: "the document was created and deleted again during every attempt"),
      backendCode: "ALREADY_EXISTS")
  }

  func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument {
    let target = try Self.checkedUserID(userID)
    try Self.check(fields: fields, removing: removing)
    let (values, stamps) = FirestoreFieldPath.split(fields)
    let mask = Set(values.keys).union(removing).sorted().map(FirestoreFieldPath.segment)
    let (response, uid, token) = try await exchange(operation: "commit", userID: target) {
      uid, token throws(UserBackendError) in
      try commitRequest(
        userID: uid, values: values, mask: mask, mustNotExist: false, stamps: stamps,
        token: token)
    }
    guard response.isSuccess else {
      throw Self.failure(response, operation: "commit", token: token)
    }
    guard let document = try await read(uid) else {
      throw UserBackendError(
        .server(
          status: 404, code: "NOT_FOUND",
          message: "the document was deleted right after the update"),
        backendCode: "NOT_FOUND")
    }
    return document
  }

  func deleteDocument(userID: String?) async throws(UserBackendError) {
    let target = try Self.checkedUserID(userID)
    let (response, _, token) = try await exchange(operation: "delete", userID: target) {
      uid, token throws(UserBackendError) in
      try request(.delete, location.documentURL(userID: uid), token: token)
    }
    if response.isSuccess
      || FirestoreErrorMapping.isEnvelope(response, status: "NOT_FOUND", httpStatus: 404)
    {
      return
    }
    throw Self.failure(response, operation: "delete", token: token)
  }

  // MARK: Requests

  /// `GET` of `users/{userID}` (`nil`: the signed-in user); `nil` when it does not exist.
  private func read(_ userID: String?) async throws(UserBackendError) -> UserDocument? {
    let (response, uid, token) = try await exchange(operation: "get", userID: userID) {
      uid, token throws(UserBackendError) in
      try request(.get, location.documentURL(userID: uid), token: token)
    }
    if FirestoreErrorMapping.isEnvelope(response, status: "NOT_FOUND", httpStatus: 404) {
      return nil
    }
    guard response.isSuccess else { throw Self.failure(response, operation: "get", token: token) }
    let body = try Self.decode(FirestoreDocumentBody.self, from: response.body, operation: "get")
    // The answer says which document it is: only the requested one is taken, so an answer
    // naming another user's document (or another project's) is never shown as this one.
    guard body.name == (try location.documentName(userID: uid)) else {
      throw UserBackendError(
        .malformedResponse(
          reason: "Firestore get: the answer's document name is not the requested document"))
    }
    return try Self.document(body, userID: uid)
  }

  /// Sends the request `build` makes for the target user's ID and a fresh ID token; on a
  /// 401 answer forces one token refresh and sends it once more.
  /// - Returns: the answer (any status but 401), the user ID used and the token sent.
  private func exchange(
    operation: String, userID: String?,
    _ build: (String, String) throws(UserBackendError) -> HTTPRequest
  ) async throws(UserBackendError) -> (HTTPResponse, String, String) {
    var session = try await backend.freshSession(forceRefresh: false)
    var refreshed = false
    while true {
      let uid = userID ?? session.user.id
      let token = session.bearerToken
      let request = try build(uid, token)
      let response: HTTPResponse
      do {
        response = try await backend.client.transport.sendForBackend(request)
      } catch {
        throw FirebaseClient.scrub(error, secrets: [token])
      }
      guard response.status == 401 else { return (response, uid, token) }
      if refreshed {
        let status = FirestoreErrorEnvelope.read(response.body)?.error.status ?? "UNAUTHENTICATED"
        throw UserBackendError(
          .server(status: 401, code: status, message: nil),
          backendCode: BackendErrorCode(
            rawValue: status),
          message: "Firestore \(operation) refused a freshly refreshed ID token; the session "
            + "is kept. Is the project ID the project that issued the token?")
      }
      refreshed = true
      session = try await backend.freshSession(forceRefresh: true)
    }
  }

  private func request(_ method: HTTPMethod, _ url: URL?, token: String, body: Data = Data())
    throws(UserBackendError) -> HTTPRequest
  {
    guard let url else {
      throw UserBackendError(
        .misconfigured(setting: "projectID", reason: "does not form a valid Firestore URL"))
    }
    var fields = HTTPFields()
    fields.append(name: "Authorization", value: "Bearer " + token)
    if !body.isEmpty { fields.append(name: "Content-Type", value: "application/json") }
    return HTTPRequest(method: method, url: url, headerFields: fields, body: body)
  }

  private func commitRequest(
    userID: String, values: [String: DocumentValue], mask: [String]?, mustNotExist: Bool,
    stamps: [[String]], token: String
  ) throws(UserBackendError) -> HTTPRequest {
    let write = try FirestoreWrite(
      update: .init(
        name: location.documentName(userID: userID), fields: values.mapValues(FirestoreValue.init)),
      updateMask: mask.map { FirestoreWrite.Mask(fieldPaths: $0) },
      currentDocument: mustNotExist ? FirestoreWrite.Precondition(exists: false) : nil,
      updateTransforms: stamps.isEmpty
        ? nil : stamps.map { FirestoreWrite.Transform(fieldPath: FirestoreFieldPath.path($0)) })
    return try request(
      .post, location.commitURL, token: token,
      body: try Self.encode(FirestoreCommitRequest(writes: [write])))
  }

  /// The document a successful create made: the fields as stored (the values read back
  /// through the wire encoding, so timestamps have the stored precision) with each
  /// transform's result; read with a `GET` when the answer lacks them.
  private func createdDocument(
    _ response: HTTPResponse, userID: String, values: [String: DocumentValue], stamps: [[String]]
  ) async throws(UserBackendError) -> UserDocument {
    let answer = try Self.decode(
      FirestoreCommitResponse.self, from: response.body, operation: "commit")
    let result = answer.writeResults?.first
    let times = (result?.transformResults ?? []).compactMap { value -> DocumentValue? in
      if case .timestamp = value.value { return value.value }
      return nil
    }
    if let result, times.count == stamps.count,
      let updateTime = try Self.time(result.updateTime ?? answer.commitTime, operation: "commit")
    {
      var fields = try Self.normalized(values)
      for (path, time) in zip(stamps, times) {
        FirestoreFieldPath.insert(time, at: path[...], into: &fields)
      }
      return UserDocument(
        userID: userID, fields: fields, createTime: updateTime, updateTime: updateTime)
    }
    guard let document = try await read(userID) else {
      throw UserBackendError(
        .malformedResponse(
          reason: "Firestore commit succeeded but the new document cannot be read back"))
    }
    return document
  }

  // MARK: Coding

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return encoder
  }()

  static func encode(_ value: some Encodable) throws(UserBackendError) -> Data {
    do {
      return try encoder.encode(value)
    } catch {
      throw UserBackendError(
        .invalidInput(field: "fields", reason: "cannot be encoded as Firestore values"))
    }
  }

  /// Decodes an answer; first refuses, naming the field, what `JSONDecoder` would merge
  /// or refuse without a place (``UserBackendKit/JSONTextCheck``): two field names that
  /// are the same text in other bytes, which Firestore keeps apart and a Swift dictionary
  /// cannot, and a number a double cannot hold.
  static func decode<T: Decodable>(_ type: T.Type, from body: Data, operation: String)
    throws(UserBackendError) -> T
  {
    if let problem = JSONTextCheck.firstProblem(body) {
      throw UserBackendError(
        .malformedResponse(
          reason: "Firestore \(operation): \(JSONTextCheck.firestoreFieldPath(problem.path)): "
            + problem.reason))
    }
    do {
      return try JSONDecoder().decode(type, from: body)
    } catch {
      throw UserBackendError(
        .malformedResponse(
          reason: "Firestore \(operation): \(FirebaseClient.describeDecoding(error, body: body))"))
    }
  }

  /// The values as a read returns them (the wire encoding decoded again).
  private static func normalized(_ values: [String: DocumentValue]) throws(UserBackendError)
    -> [String: DocumentValue]
  {
    let data = try encode(values.mapValues(FirestoreValue.init))
    return try decode([String: FirestoreValue].self, from: data, operation: "commit")
      .mapValues(\.value)
  }

  static func time(_ text: String?, operation: String) throws(UserBackendError) -> Date? {
    guard let text else { return nil }
    guard let date = DocumentTimestamp.parse(text) else {
      throw UserBackendError(
        .malformedResponse(reason: "Firestore \(operation): a time is not RFC 3339"))
    }
    return date
  }

  static func document(_ body: FirestoreDocumentBody, userID: String) throws(UserBackendError)
    -> UserDocument
  {
    UserDocument(
      userID: userID, fields: (body.fields ?? [:]).mapValues(\.value),
      createTime: try time(body.createTime, operation: "get"),
      updateTime: try time(body.updateTime, operation: "get"))
  }

  static func failure(_ response: HTTPResponse, operation: String, token: String)
    -> UserBackendError
  {
    FirebaseClient.scrub(
      FirestoreErrorMapping.error(for: response, operation: operation), secrets: [token])
  }

  // MARK: Input checks

  /// A given user ID checked with ``FirestoreLocation/documentID(_:)`` (the shared
  /// user-ID rule and Firestore's reserved names); `nil` stays `nil` (the signed-in user,
  /// whose stored ID the same check meets when the request is built).
  /// - Throws: `.invalidInput(field: "userID")`.
  static func checkedUserID(_ userID: String?) throws(UserBackendError) -> String? {
    guard let userID else { return nil }
    return try FirestoreLocation.documentID(userID)
  }

  /// The shared checks (``DocumentValidation``, with its ``DocumentValidation/reservedFieldNames``),
  /// which cover Firestore's own reserved names (`__…__`, also of a map key).
  /// - Throws: `.invalidInput(field:)` with the value's path (`"fields.<name>"`,
  ///   `"fields.<name>.<key>"`, `"fields.<name>[<index>]"`).
  static func check(fields: [String: DocumentValue], removing: Set<String>)
    throws(UserBackendError)
  {
    try DocumentValidation.validateUpdate(
      setting: fields, removing: removing, reserved: DocumentValidation.reservedFieldNames)
  }
}
