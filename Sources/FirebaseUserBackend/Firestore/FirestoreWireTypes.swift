import Foundation

// The Firestore REST (v1) bodies the document store sends and reads
// (docs/wire/firestore-client.md). Encoded with sorted keys so the bytes are deterministic.

/// A Firestore `Document` as `GET …/documents/users/{uid}` answers it. `fields` is absent
/// for a document without fields.
struct FirestoreDocumentBody: Codable, Sendable {
  /// `projects/{p}/databases/(default)/documents/users/{uid}`.
  var name: String?
  /// The fields.
  var fields: [String: FirestoreValue]?
  /// RFC 3339.
  var createTime: String?
  /// RFC 3339.
  var updateTime: String?
}

/// `POST …/documents:commit` body: one write.
struct FirestoreCommitRequest: Encodable, Sendable {
  /// The writes, applied atomically.
  var writes: [FirestoreWrite]
}

/// One `Write` of a commit: an `update` of the whole named document, or with `updateMask`
/// of the listed field paths only; `currentDocument` a precondition;
/// `updateTransforms` the `REQUEST_TIME` transforms applied after the update.
struct FirestoreWrite: Encodable, Sendable {
  /// The document and its new fields.
  var update: Update
  /// The field paths the update changes (set or, when absent from `fields`, delete).
  var updateMask: Mask?
  /// `{"exists": false}` for create-if-absent.
  var currentDocument: Precondition?
  /// Server timestamps.
  var updateTransforms: [Transform]?

  /// `{"name", "fields"}`.
  struct Update: Encodable, Sendable {
    var name: String
    var fields: [String: FirestoreValue]
  }

  /// `{"fieldPaths": […]}`.
  struct Mask: Encodable, Sendable {
    var fieldPaths: [String]
  }

  /// `{"exists": Bool}`.
  struct Precondition: Encodable, Sendable {
    var exists: Bool
  }

  /// `{"fieldPath": …, "setToServerValue": "REQUEST_TIME"}`.
  struct Transform: Encodable, Sendable {
    var fieldPath: String
    var setToServerValue = "REQUEST_TIME"
  }
}

/// The answer of `documents:commit`.
struct FirestoreCommitResponse: Decodable, Sendable {
  /// One result per write.
  var writeResults: [WriteResult]?
  /// RFC 3339.
  var commitTime: String?

  /// `{"updateTime", "transformResults": [Value…]}` (one result per transform, in order).
  struct WriteResult: Decodable, Sendable {
    var updateTime: String?
    var transformResults: [FirestoreValue]?
  }
}

/// The Google error envelope Firestore answers with:
/// `{"error": {"code": 403, "message": "…", "status": "PERMISSION_DENIED", "details": […]}}`
/// (some endpoints wrap it in a one-element array).
struct FirestoreErrorEnvelope: Decodable, Sendable {
  var error: Body

  struct Body: Decodable, Sendable {
    var code: Int?
    var message: String?
    var status: String?
    var details: [Detail]?
  }

  /// A `details` entry; only `reason` (`SERVICE_DISABLED`, …) is read.
  struct Detail: Decodable, Sendable {
    var reason: String?
  }

  /// Reads the envelope, bare or as the only element of an array.
  static func read(_ data: Data) -> FirestoreErrorEnvelope? {
    if let envelope = try? JSONDecoder().decode(FirestoreErrorEnvelope.self, from: data) {
      return envelope
    }
    return (try? JSONDecoder().decode([FirestoreErrorEnvelope].self, from: data))?.first
  }
}
