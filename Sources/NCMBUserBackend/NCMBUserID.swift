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
///   which applies the shared rule and the objectId characters first (`.invalidInput(field: "userID")`, before any
///   request), so an empty ID never becomes the user list `users/` and `..` never climbs.
enum NCMBUserID {
  /// Checks the `objectId` of an answer that is about to be stored.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming `answer`.
  static func checkAnswered(_ objectId: String, in answer: String) throws(UserBackendError) {
    try CredentialValidation.validateAnsweredUserID(objectId, in: answer)
    guard hasObjectIdCharacters(objectId) else {
      throw UserBackendError(
        .malformedResponse(reason: "the \(answer) answer's objectId \(characterReason)"))
    }
  }

  /// Checks a user ID given to a document call: the shared rule, then the characters an
  /// objectId has (no NCMB server issues others, so another ID can only miss).
  /// - Throws: `.invalidInput(field: "userID")`, before any request.
  static func checkGiven(_ userID: String) throws(UserBackendError) -> String {
    try CredentialValidation.validateUserID(userID)
    guard hasObjectIdCharacters(userID) else {
      throw UserBackendError(.invalidInput(field: "userID", reason: characterReason))
    }
    return userID
  }

  private static let characterReason = "has characters other than ASCII letters, digits, - and _"

  /// `true` when every character is an ASCII letter, digit, `-` or `_`.
  private static func hasObjectIdCharacters(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
      default: false
      }
    }
  }

  /// The endpoint `users/{userID}`.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "userID")` when `userID` breaks
  ///   the shared rule; nothing is sent.
  static func endpoint(
    _ method: HTTPMethod, userID: String, body: Data = Data(), name: String
  ) throws(UserBackendError) -> NCMBEndpoint {
    _ = try checkGiven(userID)
    return NCMBEndpoint(method: method, pathSegments: ["users", userID], body: body, name: name)
  }
}
