import Foundation

/// The port for the signed-in user's own document, beside ``UserBackend``: one document
/// per user, readable and writable by its owner only.
///
/// Reach it through ``UserBackend/userDocuments``; it uses that backend's signed-in
/// session (and its token refresh). Every operation takes `userID`: `nil` means the
/// signed-in user; another user's ID is refused by the backend's owner rule with
/// `.permissionDenied` (the request is still sent, so a test proves the server's rule).
///
/// Field names are non-empty, and every backend refuses the names any backend reserves
/// (``DocumentValidation``: no name starting with `__`, no top-level NCMB user member such
/// as `objectId` or `acl`) with `.invalidInput(field: "fields.<name>")` before any request.
public protocol UserDocumentStore: Sendable {
  /// Reads a document.
  /// - Returns: the document, or `nil` when it does not exist (not an error).
  /// - Throws: ``UserBackendError`` with `.notSignedIn`, `.permissionDenied`,
  ///   `.sessionExpired`, `.unsupported(capability: .userDocuments)`, `.network`,
  ///   `.server`, `.malformedResponse`.
  func document(userID: String?) async throws(UserBackendError) -> UserDocument?

  /// Creates the document only if it does not exist, atomically; a
  /// ``DocumentValue/serverTimestamp`` field gets the server's time.
  /// - Returns: the stored document and whether this call created it (when it existed,
  ///   the existing document, unchanged).
  /// - Throws: as ``document(userID:)``, and `.invalidInput(field: "fields.<name>")`.
  func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation

  /// Merges fields into the document: sets `fields`, removes `removing`, leaves the rest.
  /// Creates the document when it does not exist.
  /// - Returns: the document after the change.
  /// - Throws: as ``createDocument(userID:fields:)``.
  func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument

  /// Deletes the document. Deleting a document that does not exist is not an error.
  /// - Throws: as ``document(userID:)``.
  func deleteDocument(userID: String?) async throws(UserBackendError)
}

extension UserDocumentStore {
  /// The signed-in user's document, or `nil` when it does not exist.
  public func document() async throws(UserBackendError) -> UserDocument? {
    try await document(userID: nil)
  }

  /// Merges fields into the signed-in user's document.
  public func updateDocument(setting fields: [String: DocumentValue], removing: Set<String> = [])
    async throws(UserBackendError) -> UserDocument
  {
    try await updateDocument(userID: nil, setting: fields, removing: removing)
  }

  /// The source app's sign-in flow: makes sure the signed-in user's document exists with
  /// the initial fields `uid` (the user ID), `email` (the user's email, or null),
  /// `display_name` and `create_date` (the server's time), and changes nothing when it
  /// exists. Two devices signing in at once are safe: exactly one creates it, the other
  /// reads it.
  ///
  /// - Parameters:
  ///   - user: the signed-in user (from the sign-in's ``AuthSession``).
  ///   - displayName: the `display_name` field; the source app writes `"anonymous"`.
  /// - Returns: the document and whether this call created it.
  /// - Throws: as ``createDocument(userID:fields:)``.
  public func ensureDocument(for user: User, displayName: String = "anonymous")
    async throws(UserBackendError) -> DocumentCreation
  {
    try await createDocument(
      userID: nil,
      fields: [
        "uid": .string(user.id),
        "email": user.email.map(DocumentValue.string) ?? .null,
        "display_name": .string(displayName),
        "create_date": .serverTimestamp,
      ])
  }
}

/// The document store of a backend without ``Capability/userDocuments``: every operation
/// throws `.unsupported(capability: .userDocuments)`.
public struct UnsupportedUserDocumentStore: UserDocumentStore {
  /// The store.
  public init() {}
  /// Throws `.unsupported(capability: .userDocuments)`.
  public func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
    throw UserBackendError(.unsupported(capability: .userDocuments))
  }
  /// Throws `.unsupported(capability: .userDocuments)`.
  public func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  {
    throw UserBackendError(.unsupported(capability: .userDocuments))
  }
  /// Throws `.unsupported(capability: .userDocuments)`.
  public func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument {
    throw UserBackendError(.unsupported(capability: .userDocuments))
  }
  /// Throws `.unsupported(capability: .userDocuments)`.
  public func deleteDocument(userID: String?) async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .userDocuments))
  }
}
