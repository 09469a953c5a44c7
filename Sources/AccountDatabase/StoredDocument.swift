import Foundation
import UserBackendKit

/// A user's document as a ``UserStore`` keeps it: one per account (`users/{userID}` in
/// Firestore's terms, the user object's own fields in NCMB's), deleted with the account.
public struct StoredDocument: Sendable, Hashable {
  /// The owner's account ID.
  public var userID: String
  /// The fields; never contains ``UserBackendKit/DocumentValue/serverTimestamp``.
  /// Timestamps are at microsecond precision (``UserBackendKit/DocumentTimestamp``).
  public var fields: [String: DocumentValue]
  /// When the document was created (the store clock, microsecond precision).
  public var createTime: Date
  /// When it was last written (the store clock, microsecond precision).
  public var updateTime: Date

  /// A stored document.
  public init(
    userID: String, fields: [String: DocumentValue], createTime: Date, updateTime: Date
  ) {
    self.userID = userID
    self.fields = fields
    self.createTime = createTime
    self.updateTime = updateTime
  }

  /// The port's value.
  public var userDocument: UserDocument {
    UserDocument(userID: userID, fields: fields, createTime: createTime, updateTime: updateTime)
  }
}

/// A field path inside a document: the top-level name, then the names of nested maps
/// (Firestore's `a.b`, given here already split: `["a", "b"]`).
public typealias DocumentFieldPath = [String]

/// One write of ``UserStore/writeDocuments(_:)``.
public enum DocumentWrite: Sendable, Hashable {
  /// What must hold before a write (Firestore's `currentDocument`).
  public enum Precondition: Sendable, Hashable {
    /// No condition.
    case none
    /// The document must exist (else ``DocumentStoreError/notFound(userID:)``).
    case exists
    /// The document must not exist (else ``DocumentStoreError/alreadyExists(userID:)``).
    case missing
  }

  /// Replaces the whole field set (creating the document when absent), then sets each
  /// `serverTimestamps` path to the write's time.
  case replace(
    userID: String, fields: [String: DocumentValue], serverTimestamps: [DocumentFieldPath],
    precondition: Precondition)
  /// Sets each path in `setting` and removes each in `removing` (creating the document when
  /// absent), then sets each `serverTimestamps` path to the write's time. Setting a nested
  /// path makes its parents maps (replacing a non-map value).
  case merge(
    userID: String, setting: [DocumentFieldPath: DocumentValue], removing: [DocumentFieldPath],
    serverTimestamps: [DocumentFieldPath], precondition: Precondition)
  /// Deletes the document (a missing document is fine unless `precondition` is `.exists`).
  case delete(userID: String, precondition: Precondition)

  /// The document the write addresses.
  public var userID: String {
    switch self {
    case .replace(let userID, _, _, _), .merge(let userID, _, _, _, _), .delete(let userID, _):
      userID
    }
  }
}

/// The outcome of ``UserStore/writeDocuments(_:)``: every write at one time.
public struct DocumentCommit: Sendable, Hashable {
  /// The time of the whole commit: every server timestamp and every `updateTime` of it.
  public var commitTime: Date
  /// Per write, in order: the document after it, or `nil` after a delete.
  public var documents: [StoredDocument?]

  /// A commit result.
  public init(commitTime: Date, documents: [StoredDocument?]) {
    self.commitTime = commitTime
    self.documents = documents
  }
}

/// Why a document write was refused. Nothing of the commit was written.
public enum DocumentStoreError: Error, Sendable, Hashable {
  /// A `.exists` precondition found no document.
  case notFound(userID: String)
  /// A `.missing` precondition found the document.
  case alreadyExists(userID: String)
  /// No account has this ID: documents exist only beside accounts.
  case noSuchAccount(userID: String)
}
