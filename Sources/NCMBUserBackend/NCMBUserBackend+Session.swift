import AdapterSupport
import BackendHTTP
import Foundation
import UserBackendKit

extension NCMBUserBackend {
  /// Sends `endpoint` and maps NCMB error answers. When the request carried
  /// `sessionToken` and the answer rejects it, the stored session is cleared (if it
  /// still holds that token), `sessionRevoked` is published and `sessionExpired` thrown.
  func perform(_ endpoint: NCMBEndpoint, sessionToken: String?) async throws(UserBackendError)
    -> NCMBAnswer
  {
    do {
      return try await client.send(endpoint, sessionToken: sessionToken)
    } catch let error as NCMBServerError {
      if let sessionToken, NCMBErrorMapping.sessionRejectionCodes.contains(error.code) {
        try await revoke(sessionToken: sessionToken)
      }
      throw Self.mapped(error, sentSessionToken: sessionToken != nil)
    } catch {
      throw Self.mapped(error)
    }
  }

  /// A failure of ``NCMBClient/send(_:sessionToken:)`` that is not an NCMB error answer:
  /// already a ``UserBackendError`` (the client maps everything else), else `.network`.
  static func mapped(_ error: any Error) -> UserBackendError {
    error as? UserBackendError ?? UserBackendError(transportFailure: error)
  }

  /// The portable error for an NCMB error answer.
  static func mapped(_ error: NCMBServerError, sentSessionToken: Bool) -> UserBackendError {
    NCMBErrorMapping.error(
      code: error.code, message: error.message, status: error.status,
      retryAfter: error.retryAfter, sentSessionToken: sentSessionToken)
  }

  /// The stored session, or `.notSignedIn`.
  func requireSession() async throws(UserBackendError) -> AuthSession {
    try await sessions.requireSession()
  }

  /// Stores a new session from a sign-up / sign-in answer and publishes `signedIn`.
  /// - Throws: `.malformedResponse` when the answer has no session token or an `objectId`
  ///   that is not a usable user ID (``NCMBUserID/checkAnswered(_:in:)``), storing
  ///   nothing; store errors.
  func establish(
    _ response: NCMBUserResponse, user: User, isNewUser: Bool, endpoint: String
  ) async throws(UserBackendError) -> AuthSession {
    try NCMBUserID.checkAnswered(response.objectId, in: endpoint)
    guard let token = response.sessionToken, !token.isEmpty else {
      throw NCMBClient.malformed(endpoint, "has no sessionToken")
    }
    let session = AuthSession(
      user: AnswerLimits.keepingUsableProfile(user), bearerToken: token, refreshToken: nil,
      expiresAt: nil, isNewUser: isNewUser)
    try await sessions.signIn(session)
    return session
  }

  /// Replaces the stored user when the stored session still holds `sessionToken`.
  func storeUser(_ user: User, sessionToken: String) async throws(UserBackendError) {
    try await sessions.update { state in
      guard var session = state.session, session.bearerToken == sessionToken else {
        return false
      }
      session.user = user
      state.session = session
      return true
    }
  }

  /// Clears the stored session when it still holds `sessionToken` and publishes
  /// `sessionRevoked`.
  func revoke(sessionToken: String) async throws(UserBackendError) {
    let cleared = try await sessions.update { state in
      guard state.session?.bearerToken == sessionToken else { return false }
      state.session = nil
      return true
    }
    if cleared { sessions.publish(.sessionRevoked, user: nil) }
  }
}
