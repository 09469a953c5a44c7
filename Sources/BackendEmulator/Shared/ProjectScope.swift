import BackendHTTP
import Foundation

/// The one project the emulator serves, and the answer to a path that names another.
///
/// The emulator keeps one dataset (one account table, one document per account) for the
/// project ID it was started with (`baas emulator --project-id`, default `demo-project`),
/// the one its ID tokens carry as `aud`. The Firebase Emulator Suite keeps one dataset per
/// project ID, and test suites rely on it (a project ID per test, reset in teardown).
/// Serving every project ID from this one dataset would let one test's
/// `DELETE /emulator/v1/projects/X/accounts` wipe project Y's accounts, and a token of
/// project Y read Y's documents through X's path. Keeping a dataset per project ID would
/// need a project column in every table; refusing the other IDs is the smaller rule and
/// keeps the promise that data never crosses projects.
///
/// So every path that names a project answers only for the configured one:
/// - Firestore `[/firestore.googleapis.com]/v1/projects/{id}/databases/{db}/…` (and only
///   the `(default)` database);
/// - Identity Toolkit `[/identitytoolkit.googleapis.com]/v1/projects/{id}/…` (the admin
///   account calls);
/// - the emulator-only `/emulator/v1/projects/{id}/…` (accounts, codes, request log).
///
/// Another project ID (or database) is a `404 NOT_FOUND` in the protocol's error shape
/// naming the configured project, before anything is read or changed (for Firestore in
/// production's words for a missing database, `The database (default) does not exist …`,
/// which a client takes for a wrong project ID, not for a missing document). The requested ID is
/// not echoed (it is caller text of any length).
enum ProjectScope {
  /// Firestore's only database here.
  static let database = "(default)"

  /// The `404` for `request` when its path names a project (or a Firestore database)
  /// this emulator does not serve; `nil` when it names none, or `projectID`.
  static func refusal(_ request: HTTPRequest, projectID: String) -> HTTPResponse? {
    if let path = FirestorePath(request.rawPath) {
      // Production's wording for a project without the database ("The database (default)
      // does not exist for project …"), which clients read as a wrong project ID rather
      // than as a missing document.
      if path.project != projectID {
        return FirestoreError.notFound(
          "The database \(database) does not exist for the project the path names: "
            + otherProject(projectID)
        ).response
      }
      if path.database != database {
        return FirestoreError.notFound(
          "The database the path names does not exist for project \"\(projectID)\": this "
            + "emulator serves only its \(database) database."
        ).response
      }
      return nil
    }
    guard let named = authProject(request), named != projectID else { return nil }
    var error = FirebaseError("Not Found: " + otherProject(projectID))
    error.status = 404
    error.statusText = "NOT_FOUND"
    return error.response
  }

  /// The sentence naming the configured project.
  static func otherProject(_ projectID: String) -> String {
    "this emulator serves project \"\(projectID)\" only; the path names another project ID "
      + "(start an emulator with --project-id for that project)."
  }

  /// The project ID in `/emulator/v1/projects/{id}/…` or
  /// `[/identitytoolkit.googleapis.com]/v1/projects/{id}/…`, percent-decoded; `nil` for
  /// other paths.
  static func authProject(_ request: HTTPRequest) -> String? {
    var segments = request.rawPath.split(separator: "/", omittingEmptySubsequences: false)
      .dropFirst().map { String($0).removingPercentEncoding ?? String($0) }[...]
    if segments.first == "identitytoolkit.googleapis.com" {
      segments = segments.dropFirst()
    } else if segments.first == "emulator" {
      segments = segments.dropFirst()
    }
    let parts = Array(segments)
    guard parts.count >= 3, parts[0] == "v1", parts[1] == "projects" else { return nil }
    return parts[2]
  }
}
