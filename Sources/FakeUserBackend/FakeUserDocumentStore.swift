import AccountDatabase
import Foundation
import UserBackendKit

extension FakeUserBackend {
  /// The signed-in user's document in this backend's ``UserStore``
  /// (``FakeUserDocumentStore``). Capability ``UserBackendKit/Capability/userDocuments``.
  public var userDocuments: any UserDocumentStore { FakeUserDocumentStore(backend: self) }
}

/// The fake's ``UserBackendKit/UserDocumentStore``: documents in the backend's
/// ``UserStore`` (one per account, deleted with it), under the owner rule the emulator and
/// the shipped `firestore.rules` enforce: only the signed-in user reaches their document.
///
/// Every operation first checks a given `userID` by the shared rule (`.invalidInput(field:
/// "userID")`, as every backend), then takes the backend's session (refreshed when expired), so nobody
/// signed in is `.notSignedIn`; a `userID` other than the signed-in user's is
/// `.permissionDenied` (backend code `PERMISSION_DENIED`), whether that account exists or
/// not. Writes are checked with ``UserBackendKit/DocumentValidation`` before the store is
/// touched; server timestamps take the store clock's time, one per write, in microseconds.
public struct FakeUserDocumentStore: UserDocumentStore {
  /// The backend whose session and store are used.
  public let backend: FakeUserBackend

  /// The document store of `backend`.
  public init(backend: FakeUserBackend) {
    self.backend = backend
  }

  /// Reads the document; `nil` when it does not exist.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput(field: "userID")`,
  ///   `.notSignedIn`, `.permissionDenied`, `.sessionExpired`, `.server` (`DATABASE_ERROR`).
  public func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
    try Self.check(userID)
    let owner = try await ownerID(userID)
    return try await call { store in try store.document(userID: owner)?.userDocument }
  }

  /// Creates the document unless it exists (atomically in the store).
  /// - Throws: as ``document(userID:)``, and `.invalidInput(field: "fields.<name>")`.
  public func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  {
    try Self.check(userID)
    try DocumentValidation.validateCreate(
      fields, reserved: DocumentValidation.reservedFieldNames)
    let owner = try await ownerID(userID)
    let result = try await call { store in
      try store.createDocumentIfAbsent(userID: owner, fields: fields)
    }
    return DocumentCreation(document: result.document.userDocument, created: result.created)
  }

  /// Merges fields into the document, creating it when absent.
  /// - Throws: as ``createDocument(userID:fields:)``.
  public func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument {
    try Self.check(userID)
    try DocumentValidation.validateUpdate(
      setting: fields, removing: removing, reserved: DocumentValidation.reservedFieldNames)
    let owner = try await ownerID(userID)
    return try await call { store in
      try store.updateDocument(userID: owner, setting: fields, removing: removing)
        .userDocument
    }
  }

  /// Deletes the document; a missing one is fine.
  /// - Throws: as ``document(userID:)``.
  public func deleteDocument(userID: String?) async throws(UserBackendError) {
    try Self.check(userID)
    let owner = try await ownerID(userID)
    _ = try await call { store in try store.deleteDocument(userID: owner) }
  }

  /// A given user ID checked with the shared rule
  /// (``UserBackendKit/CredentialValidation/validateUserID(_:field:)``), before the
  /// session or the fields, in the order the Firebase and NCMB adapters check them.
  /// - Throws: `.invalidInput(field: "userID")`.
  private static func check(_ userID: String?) throws(UserBackendError) {
    if let userID { try CredentialValidation.validateUserID(userID) }
  }

  /// The signed-in user's ID when `userID` is `nil` or theirs; the owner rule otherwise.
  /// The signed-in user is the one the store issued the session's token to
  /// (``FakeUserBackend/callerSession()``), never just the ID the session file states.
  private func ownerID(_ userID: String?) async throws(UserBackendError) -> String {
    let session = try await backend.callerSession()
    guard userID == nil || userID == session.user.id else { throw FakeUserBackend.notTheCaller }
    return session.user.id
  }

  /// Runs `body` with the store, off the cooperative pool for a file store
  /// (``AccountDatabase/UserStore/waitingOffPool(_:)``), mapping its errors.
  private func call<T: Sendable>(_ body: @escaping @Sendable (UserStore) throws -> T)
    async throws(UserBackendError) -> T
  {
    do {
      return try await backend.offPool(body)
    } catch DocumentStoreError.noSuchAccount {
      throw UserBackendError(.sessionExpired, backendCode: "USER_NOT_FOUND")
    } catch {
      throw FakeUserBackend.mapped(error)
    }
  }
}
