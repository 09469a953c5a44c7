import BackendHTTP
import Foundation
import UserBackendKit

/// The NCMB adapter's user IDs (`objectId`): what it believes from a server and the one
/// way it puts one into a URL path.
///
/// - **Answers.** The shared rule (``UserBackendKit/CredentialValidation/userIDProblem(_:)``),
///   and only ASCII letters, digits, `-` and `_`: the hosted service issues 16 letters
///   and digits (`epaKcaYZqsREdSMY`), compatible servers such as `baas emulator` issue
///   UUIDs. Anything else in a sign-in answer is `.malformedResponse` and nothing is
///   stored.
/// - **Paths.** Every `users/{objectId}` request is built by ``endpoint(_:userID:body:name:)``,
///   which applies the shared rule first (`.invalidInput(field: "userID")`, before any
///   request), so an empty ID never becomes the user list `users/` and `..` never climbs.
enum NCMBUserID {
  /// Checks the `objectId` of an answer that is about to be stored.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming `answer`.
  static func checkAnswered(_ objectId: String, in answer: String) throws(UserBackendError) {
    try CredentialValidation.validateAnsweredUserID(objectId, in: answer)
    let allowed = objectId.unicodeScalars.allSatisfy { scalar in
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
      default: false
      }
    }
    guard allowed else {
      throw UserBackendError(
        .malformedResponse(
          reason: "the \(answer) answer's objectId has characters other than ASCII letters, "
            + "digits, - and _"))
    }
  }

  /// The endpoint `users/{userID}`.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "userID")` when `userID` breaks
  ///   the shared rule; nothing is sent.
  static func endpoint(
    _ method: HTTPMethod, userID: String, body: Data = Data(), name: String
  ) throws(UserBackendError) -> NCMBEndpoint {
    try CredentialValidation.validateUserID(userID)
    return NCMBEndpoint(method: method, pathSegments: ["users", userID], body: body, name: name)
  }
}
