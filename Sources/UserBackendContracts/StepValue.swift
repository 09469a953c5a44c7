import Foundation
import UserBackendKit

/// What an operation produced, kept for expectations and for later steps' references.
indirect enum StepValue: Sendable {
  /// A sign-in or sign-up session.
  case session(AuthSession)
  /// `currentUser()`'s answer.
  case user(User?)
  /// A bearer token, the user signed in when it was read, the token's own subject
  /// (``ContractEnvironment/tokenSubject(_:)``; `nil` when it cannot be read) and the token
  /// refresh requests the environment counted on the wire during the step (`nil`: it
  /// cannot count them).
  case token(String, user: User?, subject: String?, refreshRequests: Int?)
  /// A phone verification ID.
  case verificationID(String)
  /// Nothing (sign-out, restart, password reset, ...).
  case none
  /// A `concurrent` step: outcome name -> count, the values of the operations that
  /// succeeded (in listed order; a label on the step refers to the first for its user,
  /// and to all of them for token comparisons), and the token refresh requests the
  /// environment counted during the step (`nil`: it cannot count them).
  case outcomes(
    [String: Int], values: [StepValue], refreshRequests: Int?, failures: [String] = [])
  /// An `expectEvents` step: the events observed.
  case events([AuthStateChange])
  /// A document read or written (`nil`: absent).
  case document(UserDocument?)
  /// A `createDocument` / `ensureDocument` answer.
  case creation(DocumentCreation)
  /// A `rawGetDocument` step: the server's own answer.
  case serverAnswer(ServerAnswer)

  /// The user this value carries, if any.
  var user: User? {
    switch self {
    case .session(let session): session.user
    case .user(let user): user
    case .token(_, let user, _, _): user
    case .outcomes(_, let values, _, _): values.first?.user
    case .verificationID, .none, .events, .document, .creation, .serverAnswer: nil
    }
  }

  /// The document this value carries, if any (`nil` also for an absent document).
  var document: UserDocument? {
    switch self {
    case .document(let document): document
    case .creation(let creation): creation.document
    default: nil
    }
  }

  /// The token this value carries, if any.
  var token: String? {
    switch self {
    case .token(let token, _, _, _): token
    case .outcomes(_, let values, _, _): values.first?.token
    default: nil
    }
  }

  /// Every token this value carries: one for `idToken`, each success's for `concurrent`.
  var tokens: [String] {
    switch self {
    case .token(let token, _, _, _): [token]
    case .outcomes(_, let values, _, _): values.compactMap(\.token)
    default: []
    }
  }

  /// Tokens this value carries, for scrubbing report text.
  var secrets: [String] {
    switch self {
    case .session(let session): [session.bearerToken] + (session.refreshToken.map { [$0] } ?? [])
    case .token(let token, _, _, _): [token]
    case .outcomes(_, let values, _, _): values.flatMap(\.secrets)
    default: []
    }
  }

  /// A human description without secrets: `user(email: "a@x", providers: [password], ...)`.
  var summary: String {
    switch self {
    case .session(let session):
      "session for " + describe(session.user) + ", isNewUser: \(session.isNewUser)"
    case .user(let user): user.map(describe) ?? "no user (nil)"
    case .token(let token, _, _, _):
      token.isEmpty ? "an empty token" : "a token (\(token.count) characters)"
    case .verificationID: "a verification ID"
    case .none: "success"
    case .outcomes(let counts, _, _, let failures):
      "outcomes " + describeCounts(counts)
        + (failures.isEmpty ? "" : " (" + failures.joined(separator: "; ") + ")")
    case .events(let events): "events " + describeEvents(events)
    case .document(let document): document.map(describe) ?? "no document (nil)"
    case .creation(let creation):
      describe(creation.document) + ", created: \(creation.created)"
    case .serverAnswer(let answer): "the server answered " + answer.description
    }
  }
}

/// `document(userID: "…", fields: {"a": {"string": "x"}})`.
func describe(_ document: UserDocument) -> String {
  "document(userID: \"\(document.userID)\", fields: "
    + ContractValue.describe(document.fields) + ")"
}

/// `user(id: "…", email: "…", providers: [password], isAnonymous: false)`.
func describe(_ user: User) -> String {
  var parts = ["id: \"\(user.id)\""]
  if let email = user.email { parts.append("email: \"\(email)\"") }
  if let username = user.username { parts.append("username: \"\(username)\"") }
  if let phone = user.phoneNumber { parts.append("phoneNumber: \"\(phone)\"") }
  if let name = user.displayName { parts.append("displayName: \"\(name)\"") }
  if let url = user.photoURL { parts.append("photoURL: \"\(url.absoluteString)\"") }
  if let verified = user.emailVerified { parts.append("emailVerified: \(verified)") }
  parts.append("providers: [\(user.providers.joined(separator: ", "))]")
  parts.append("isAnonymous: \(user.isAnonymous)")
  return "user(" + parts.joined(separator: ", ") + ")"
}

/// `{accountAlreadyExists: 19, success: 1}`, keys sorted.
func describeCounts(_ counts: [String: Int]) -> String {
  "{" + counts.keys.sorted().map { "\($0): \(counts[$0] ?? 0)" }.joined(separator: ", ") + "}"
}

/// `[initialState(nil), signedIn(u-1@example.com), signedOut(nil)]`.
func describeEvents(_ events: [AuthStateChange]) -> String {
  "["
    + events.map { change in
      "\(change.event.rawValue)(" + (change.user.map { $0.email ?? $0.username ?? $0.id } ?? "nil")
        + ")"
    }.joined(separator: ", ") + "]"
}

/// An error in words: `accountAlreadyExists [EMAIL_EXISTS]: message` for a
/// `UserBackendError`, the type and description otherwise.
func describeError(_ error: any Error) -> String {
  if let error = error as? UserBackendError {
    var text = "error " + error.code.name
    switch error.code {
    case .invalidInput(let field, _): text += "(field: \(field))"
    case .weakPassword(let minimum): text += "(minimumLength: \(minimum))"
    case .unsupported(let capability): text += "(capability: \(capability))"
    default: break
    }
    if let backendCode = error.backendCode { text += " [\(backendCode.rawValue)]" }
    return text + ": " + error.message
  }
  return "error \(type(of: error)): \(error)"
}

/// The outcome name of a `concurrent` sub-operation: `"success"` (for a document creation
/// `"created"` or `"existed"`) or the portable error name (`"other"` for errors that are
/// not `UserBackendError`).
func outcomeName(_ result: Result<StepValue, any Error>) -> String {
  switch result {
  case .success(.creation(let creation)): creation.created ? "created" : "existed"
  case .success: "success"
  case .failure(let error as UserBackendError): error.code.name
  case .failure: "other"
  }
}
