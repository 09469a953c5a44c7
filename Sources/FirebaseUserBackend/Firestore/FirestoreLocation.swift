import Foundation
import UserBackendKit

/// Where the user documents live: `users/{uid}` below
/// `https://firestore.googleapis.com/v1/projects/{projectID}/databases/(default)/documents`,
/// or `http://HOST:PORT/v1/projects/…` on an emulator.
struct FirestoreLocation: Sendable, Hashable {
  /// `…/v1/projects/{projectID}/databases/(default)/documents`, no trailing slash.
  let documentsURL: String
  /// `projects/{projectID}/databases/(default)/documents`, the prefix of document names.
  let resourceRoot: String

  /// The collection of the users' documents.
  static let collection = "users"

  /// The URL of `users/{userID}` (the ID percent-encoded, RFC 3986 unreserved characters
  /// kept).
  func documentURL(userID: String) -> URL? {
    URL(string: documentsURL + "/" + Self.collection + "/" + Self.escape(userID))
  }

  /// `…/documents:commit`.
  var commitURL: URL? { URL(string: documentsURL + ":commit") }

  /// The document's resource name, `projects/…/documents/users/{userID}` (unescaped).
  func documentName(userID: String) -> String {
    resourceRoot + "/" + Self.collection + "/" + userID
  }

  static func escape(_ segment: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
  }
}

extension FirebaseConfiguration {
  /// The production Firestore root, `https://firestore.googleapis.com/`.
  static let firestoreProductionRoot = "https://firestore.googleapis.com/"

  /// Where the documents live, or `nil` without a ``projectID`` (Firestore URLs need it).
  ///
  /// The host is ``firestoreEmulatorHost`` when set, else ``emulatorHost`` when set (the
  /// Auth emulator's address: `baas emulator` serves Firestore on the same port, and an
  /// emulator's ID tokens are useless to production Firestore), else production.
  /// - Throws: ``UserBackendError`` `.misconfigured(setting: "firestoreEmulatorHost")` for a
  ///   host that is not `host:port` (`[::1]:8080` for IPv6), and the errors of
  ///   ``resolvedEndpoints()`` for `projectID`.
  func resolvedFirestore() throws(UserBackendError) -> FirestoreLocation? {
    guard let projectID else { return nil }
    if let problem = FirebaseProjectID.problem(with: projectID) {
      throw UserBackendError(.misconfigured(setting: "projectID", reason: problem))
    }
    var root = Self.firestoreProductionRoot
    if let firestoreEmulatorHost {
      do {
        root = try EmulatorAddress(parsing: firestoreEmulatorHost).baseURL
      } catch {
        var renamed = error
        if case .misconfigured(_, let reason) = error.code {
          renamed.code = .misconfigured(setting: "firestoreEmulatorHost", reason: reason)
          renamed.message = "firestoreEmulatorHost: \(reason)"
        }
        throw renamed
      }
    } else if let emulatorHost {
      root = try EmulatorAddress(parsing: emulatorHost).baseURL
    }
    let resourceRoot = "projects/\(projectID)/databases/(default)/documents"
    return FirestoreLocation(documentsURL: root + "v1/" + resourceRoot, resourceRoot: resourceRoot)
  }
}
