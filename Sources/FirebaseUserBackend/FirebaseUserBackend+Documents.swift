import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// The signed-in user's document `users/{uid}` in Cloud Firestore (REST v1), reached with
  /// the session's ID token (docs/wire/firestore-client.md). Needs
  /// ``FirebaseConfiguration/projectID`` (the Firestore URL names the project): without
  /// one, or with an unusable project ID or Firestore emulator host, every operation
  /// throws `.misconfigured` naming the setting, before any request. Requests go to
  /// ``FirebaseConfiguration/firestoreEmulatorHost``, else to the Auth emulator's
  /// ``FirebaseConfiguration/emulatorHost``, else to `firestore.googleapis.com`.
  public var userDocuments: any UserDocumentStore {
    do {
      guard let location = try configuration.resolvedFirestore() else {
        return MisconfiguredDocumentStore(
          error: UserBackendError(
            .misconfigured(
              setting: "projectID",
              reason: "the user's document (Firestore) needs the Firebase project ID")))
      }
      return FirestoreDocumentStore(backend: self, location: location)
    } catch {
      return MisconfiguredDocumentStore(error: error)
    }
  }
}

/// The document store of a Firebase backend whose configuration cannot reach Firestore:
/// every operation throws the configuration error, before any request.
struct MisconfiguredDocumentStore: UserDocumentStore {
  let error: UserBackendError

  func document(userID: String?) async throws(UserBackendError) -> UserDocument? { throw error }
  func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  { throw error }
  func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument { throw error }
  func deleteDocument(userID: String?) async throws(UserBackendError) { throw error }
}
