import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// The signed-in user's document `users/{uid}` in Cloud Firestore (REST v1), reached with
  /// the session's ID token (docs/wire/firestore-client.md). Needs
  /// ``FirebaseConfiguration/projectID`` (the Firestore URL names the project); without
  /// one, ``Capability/userDocuments`` is not claimed and every operation throws
  /// `.unsupported(capability: .userDocuments)`. Requests go to
  /// ``FirebaseConfiguration/firestoreEmulatorHost``, else to the Auth emulator's
  /// ``FirebaseConfiguration/emulatorHost``, else to `firestore.googleapis.com`.
  public var userDocuments: any UserDocumentStore {
    guard let location = try? configuration.resolvedFirestore() else {
      return UnsupportedUserDocumentStore()
    }
    return FirestoreDocumentStore(backend: self, location: location)
  }
}
