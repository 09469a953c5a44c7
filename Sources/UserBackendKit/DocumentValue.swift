import Foundation

/// A typed value of a user document's field, the value model Firestore documents
/// (Firestore REST `Value`) and NCMB objects share.
///
/// On the wire: Firestore `{"stringValue": …}`, `{"integerValue": "42"}` (a decimal
/// string), `{"doubleValue": 1.5}`, `{"booleanValue": true}`, `{"timestampValue":
/// "2026-11-30T12:00:00.123456Z"}` (RFC 3339 UTC, microseconds), `{"nullValue": null}`,
/// `{"arrayValue": {"values": […]}}`, `{"mapValue": {"fields": {…}}}`; NCMB plain JSON,
/// with timestamps as `{"__type": "Date", "iso": "…"}` (milliseconds).
public enum DocumentValue: Sendable, Hashable {
  /// A UTF-8 string.
  case string(String)
  /// A signed 64-bit integer.
  case integer(Int64)
  /// A double-precision number.
  case double(Double)
  /// A Boolean.
  case bool(Bool)
  /// A point in time; stored to the backend's precision (Firestore microseconds, NCMB
  /// milliseconds).
  case timestamp(Date)
  /// An explicit null.
  case null
  /// An ordered list of values.
  case array([DocumentValue])
  /// A nested map of named values.
  case map([String: DocumentValue])
  /// Write-only sentinel: the server's time when it applies the write (Firestore
  /// `REQUEST_TIME` transform). Reads never return it; it is not allowed inside an array.
  case serverTimestamp
}

/// The signed-in user's document: the named fields beside the account.
public struct UserDocument: Sendable, Hashable {
  /// The owner's user ID (the document's ID: Firestore `users/{userID}`, the NCMB user's
  /// `objectId`).
  public var userID: String
  /// The fields, by name. Never contains ``DocumentValue/serverTimestamp``.
  public var fields: [String: DocumentValue]
  /// When the document was created, when the backend says.
  public var createTime: Date?
  /// When the document was last changed, when the backend says.
  public var updateTime: Date?

  /// A document value.
  public init(
    userID: String, fields: [String: DocumentValue], createTime: Date? = nil,
    updateTime: Date? = nil
  ) {
    self.userID = userID
    self.fields = fields
    self.createTime = createTime
    self.updateTime = updateTime
  }
}

/// The answer of ``UserDocumentStore/createDocument(userID:fields:)``: the document as
/// stored, and whether this call created it.
public struct DocumentCreation: Sendable, Hashable {
  /// The stored document: the new one, or the one that already existed (unchanged).
  public var document: UserDocument
  /// `true` when this call created the document; `false` when it existed.
  public var created: Bool

  /// A creation result.
  public init(document: UserDocument, created: Bool) {
    self.document = document
    self.created = created
  }
}
