import BackendHTTP
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

  /// The URL of `users/{userID}`: the checked ID (``documentID(_:)``) percent-encoded
  /// (RFC 3986 unreserved characters kept).
  /// - Throws: `.invalidInput(field: "userID")`, before any request.
  func documentURL(userID: String) throws(UserBackendError) -> URL? {
    URL(
      string: documentsURL + "/" + Self.collection + "/"
        + URLPathSegment.encoded(try Self.documentID(userID)))
  }

  /// `…/documents:commit`.
  var commitURL: URL? { URL(string: documentsURL + ":commit") }

  /// The document's resource name, `projects/…/documents/users/{userID}`: the checked ID
  /// (``documentID(_:)``) written raw, as resource names are. The same ID the URL of
  /// ``documentURL(userID:)`` carries percent-encoded, so reads and writes address one
  /// document.
  /// - Throws: `.invalidInput(field: "userID")`, before any request.
  func documentName(userID: String) throws(UserBackendError) -> String {
    resourceRoot + "/" + Self.collection + "/" + (try Self.documentID(userID))
  }

  /// The one check of a user's document ID, whether given (`userID:`) or the signed-in
  /// user's: the shared user-ID rule
  /// (``UserBackendKit/CredentialValidation/userIDProblem(_:)``: not empty, at most 128
  /// characters, not `.` or `..`, no `/`, `\` or control characters), then
  /// Firestore's own: not `__…__` (reserved). Well within Firestore's 1,500 bytes.
  /// - Throws: `.invalidInput(field: "userID")`.
  static func documentID(_ userID: String) throws(UserBackendError) -> String {
    try CredentialValidation.validateUserID(userID)
    // Per code point, as Firestore reads names: `"__" + U+0301 + "x__"` is reserved too,
    // though its first two Characters are not "_" and "_".
    let scalars = Array(userID.unicodeScalars)
    if scalars.count >= 4 && scalars.prefix(2) == ["_", "_"] && scalars.suffix(2) == ["_", "_"] {
      throw UserBackendError(
        .invalidInput(field: "userID", reason: "names of the form __…__ are reserved by Firestore"))
    }
    return userID
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
  /// Why a public Firestore emulator host is refused with production Auth.
  /// `refusal` is ``BackendHTTP/HostScope/refusal(host:)``'s phrase for `host`.
  static func productionTokenToPublicHost(_ host: String, _ refusal: String) -> String {
    "with production Auth (no Auth emulator host), the production ID token would go in "
      + "plain HTTP to \(host), which \(refusal); use "
      + "a local Firestore emulator, or set the Auth emulator host too"
  }

  func resolvedFirestore() throws(UserBackendError) -> FirestoreLocation? {
    guard let projectID else { return nil }
    if let problem = FirebaseProjectID.problem(with: projectID) {
      throw UserBackendError(.misconfigured(setting: "projectID", reason: problem))
    }
    var root = Self.firestoreProductionRoot
    if let firestoreEmulatorHost {
      do throws(UserBackendError) {
        let address = try EmulatorAddress(parsing: firestoreEmulatorHost)
        // Production Auth: the production ID token goes to this host in plain HTTP.
        let host = address.address.host
        if emulatorHost == nil, let refusal = HostScope(host: host).refusal(host: host) {
          throw UserBackendError(
            .misconfigured(
              setting: "emulatorHost", reason: Self.productionTokenToPublicHost(host, refusal)))
        }
        root = address.baseURL
      } catch {
        var renamed = error
        if case .misconfigured(_, let reason) = error.code {
          renamed.code = .misconfigured(setting: "firestoreEmulatorHost", reason: reason)
          renamed.message = "firestoreEmulatorHost: \(reason)"
        }
        throw renamed
      }
    } else if let emulatorHost {
      root = try EmulatorAddress(authEmulator: emulatorHost).baseURL
    }
    let resourceRoot = "projects/\(projectID)/databases/(default)/documents"
    return FirestoreLocation(documentsURL: root + "v1/" + resourceRoot, resourceRoot: resourceRoot)
  }
}
