import Foundation

/// The one rule for user IDs, shared by both adapters' document calls, their URL paths and
/// document names, the sign-in answers they store, and the CLI's `--user`.
///
/// A user ID becomes one URL path segment (`users/{id}`, percent-encoded: `?`, `#` and `%`
/// travel as `%3F`, `%23`, `%25`) and, on Firebase, one segment of a Firestore document
/// name written raw; an ID that is not one segment would address another resource
/// (`users/` lists users, `users/..` climbs a level, `a/../x` reads one document and
/// writes another). So a user ID given to a document call, or stored by the NCMB adapter,
/// is:
/// - not empty and at most ``maximumUserIDLength`` characters (Firebase's limit for a uid,
///   the longest either service issues; NCMB objectIds are 16 characters);
/// - not `.` or `..`;
/// - free of `/`, `\` (a separator to WHATWG URL parsers) and control characters (Unicode
///   category Cc, including NUL, line breaks, DEL and the C1 range).
///
/// Backends add their own rules: Firestore reserves `__…__` document IDs; the NCMB adapter
/// believes only objectIds of ASCII letters, digits, `-` and `_` from a server; a Firebase
/// sign-in answer's `localId` is any uid Firebase allows (1–128 characters: the Admin SDK
/// and custom tokens set uids such as `org/42`), and only such a user's document calls are
/// refused.
extension CredentialValidation {
  /// The longest user ID accepted, in Unicode scalars (code points, ``limitedLength(_:)``):
  /// 128. Counting grapheme clusters let `"a"` and thousands of combining marks pass as one.
  public static let maximumUserIDLength = 128

  /// Why `userID` cannot be a user ID, as a short reason (`"must not contain /"`), or
  /// `nil` when it can. The reason never quotes the ID.
  public static func userIDProblem(_ userID: String) -> String? {
    if userID.isEmpty { return "must not be empty" }
    if userID == "." || userID == ".." { return "must not be . or .." }
    if limitedLength(userID) > maximumUserIDLength {
      return "is longer than \(maximumUserIDLength) characters"
    }
    for scalar in userID.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        return "must not contain control characters"
      }
      if "/\\".unicodeScalars.contains(scalar) { return "must not contain \(scalar)" }
    }
    return nil
  }

  /// Checks a user ID given as input (a document call's `userID`, the CLI's `--user`).
  /// - Parameter field: the name the error carries (`"userID"`).
  /// - Returns: `userID` unchanged.
  /// - Throws: ``UserBackendError`` `.invalidInput(field:reason:)` naming `field`.
  @discardableResult
  public static func validateUserID(_ userID: String, field: String = "userID")
    throws(UserBackendError) -> String
  {
    if let problem = userIDProblem(userID) {
      throw UserBackendError(.invalidInput(field: field, reason: problem))
    }
    return userID
  }

  /// Checks a user ID a server answered (a sign-in's `localId` / `objectId`), before
  /// anything is stored.
  /// - Parameter answer: the answer's name for the message (`"accounts:signUp"`).
  /// - Returns: `userID` unchanged.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming the answer, never quoting
  ///   the ID.
  @discardableResult
  public static func validateAnsweredUserID(_ userID: String, in answer: String)
    throws(UserBackendError) -> String
  {
    if let problem = userIDProblem(userID) {
      throw UserBackendError(
        .malformedResponse(reason: "the \(answer) answer's user ID \(problem)"))
    }
    return userID
  }
}
