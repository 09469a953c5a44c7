import BackendHTTP
import Foundation
import UserBackendKit

extension NCMBUserBackend {
  /// Fetches the signed-in user with `GET /2013-09-01/users/{objectId}` and the session
  /// token, and stores the result (the token stays). Validates the session token as a
  /// side effect.
  ///
  /// `emailVerified` comes from `mailAddressConfirm`, `createdAt` from `createDate`,
  /// `displayName` and `photoURL` from the custom user fields of those names.
  /// `"password"` stays among the providers when the stored user had it or the answer has
  /// no `authData`; fields the answer leaves out keep their stored values (a display name
  /// from Sign in with Apple lives in the session only).
  /// - Returns: the fresh user.
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` (E401001 /
  ///   E404001: session cleared); `.network` (session kept), `.server`,
  ///   `.malformedResponse`.
  public func reload() async throws(UserBackendError) -> User {
    let session = try await requireSession()
    let endpoint = try NCMBUserID.endpoint(.get, userID: session.user.id, name: "fetch user")
    let answer = try await perform(endpoint, sessionToken: session.bearerToken)
    let response = try NCMBClient.decode(
      NCMBUserResponse.self, from: answer, endpoint: "fetch user")
    guard response.objectId == session.user.id else {
      throw NCMBClient.malformed("fetch user", "answered for another user")
    }
    let old = session.user
    let hasPassword = old.providers.contains("password") || (response.authData?.keys ?? []).isEmpty
    var user = NCMBUserMapping.user(
      from: response, hasPasswordIdentity: hasPassword, sentUserName: old.username,
      sentMailAddress: old.email)
    user.phoneNumber = old.phoneNumber
    if response.displayName == nil { user.displayName = old.displayName }
    if response.photoURL == nil { user.photoURL = old.photoURL }
    if user.emailVerified == nil { user.emailVerified = old.emailVerified }
    if user.createdAt == nil { user.createdAt = old.createdAt }
    user = AnswerLimits.keepingUsableProfile(user)
    try await storeUser(user, sessionToken: session.bearerToken)
    return user
  }

  /// Changes the display name and the photo URL: `PUT /2013-09-01/users/{objectId}` with
  /// the custom user fields `displayName` and `photoURL` (NCMB has no profile fields of
  /// its own; any NCMB client can read these): a value is sent as a string, an empty
  /// string as JSON `null` (removed), `nil` not at all.
  ///
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "displayName" | "photoURL")`
  ///   before any request; `.notSignedIn`; `.sessionExpired` (session cleared),
  ///   `.network`, `.server` (E403001 when the user's ACL refuses the write),
  ///   `.malformedResponse`.
  public func updateProfile(displayName: String?, photoURL: String?)
    async throws(UserBackendError) -> User
  {
    let change = try CredentialValidation.validateProfileUpdate(
      displayName: displayName, photoURL: photoURL)
    return try await updateUser(
      NCMBUpdateUserRequest(displayName: change.displayName, photoURL: change.photoURL)
    ) { user in
      switch change.displayName {
      case .keep: break
      case .remove: user.displayName = nil
      case .set(let name): user.displayName = name
      }
      switch change.photoURL {
      case .keep: break
      case .remove: user.photoURL = nil
      case .set(let url): user.photoURL = URL(string: url)
      }
    }
  }

  /// Changes the signed-in user's password: `PUT /2013-09-01/users/{objectId}` with
  /// `{"password": …}`. The session token stays valid (NCMB issues no new one).
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "password")`, `.weakPassword`
  ///   before any request; `.notSignedIn`; `.sessionExpired` (session cleared),
  ///   `.network`, `.server`, `.malformedResponse`.
  public func updatePassword(_ newPassword: String) async throws(UserBackendError) {
    try CredentialValidation.validatePasswordChange(newPassword)
    _ = try await updateUser(NCMBUpdateUserRequest(password: newPassword)) { _ in }
  }

  /// Changes the signed-in user's mail address: `PUT /2013-09-01/users/{objectId}` with
  /// the canonical `mailAddress`. For an account whose user name is its address (as
  /// ``signUp(_:)`` creates email accounts) `userName` changes too, so the new address
  /// signs in as the old one did. The session token stays; `emailVerified` becomes
  /// unknown (`nil`) until ``reload()``.
  ///
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError``: `.invalidInput(field: "email")`, `.invalidEmail`
  ///   before any request; `.notSignedIn`; `.accountAlreadyExists` (E409001),
  ///   `.sessionExpired` (session cleared), `.network`, `.server`, `.malformedResponse`.
  public func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User {
    let email = try CredentialValidation.validateEmailChange(newEmail)
    let session = try await requireSession()
    let old = session.user
    let userNameIsEmail =
      old.username != nil && old.email != nil
      && old.username.map(CredentialValidation.canonicalEmail)
        == old.email.map(CredentialValidation.canonicalEmail)
    let request = NCMBUpdateUserRequest(
      userName: userNameIsEmail ? email : nil, mailAddress: email)
    return try await updateUser(request, session: session) { user in
      user.email = email
      if userNameIsEmail { user.username = email }
      user.emailVerified = nil
    }
  }

  /// Sends `PUT /2013-09-01/users/{objectId}` with the session token, then applies
  /// `change` to the stored user and stores it (when the session still holds the token).
  /// An answer carrying another user's `objectId` is `.malformedResponse` and nothing is
  /// stored.
  ///
  /// - Returns: the changed user.
  func updateUser(
    _ request: NCMBUpdateUserRequest, session given: AuthSession? = nil,
    _ change: (inout User) -> Void
  ) async throws(UserBackendError) -> User {
    let session: AuthSession
    if let given { session = given } else { session = try await requireSession() }
    let endpoint = try NCMBUserID.endpoint(
      .put, userID: session.user.id, body: try NCMBClient.json(request), name: "update user")
    let answer = try await perform(endpoint, sessionToken: session.bearerToken)
    if !answer.body.isEmpty {
      let response = try NCMBClient.decode(
        NCMBUpdateUserResponse.self, from: answer, endpoint: "update user")
      // The service answers `{"updateDate"}` only; an answer naming another user is not
      // about this one. A `sessionToken` in it is never stored (NCMB keeps the token).
      if let objectId = response.objectId, objectId != session.user.id {
        throw NCMBClient.malformed("update user", "answered for another user")
      }
    }
    var user = AnswerLimits.keepingUsableProfile(session.user)
    change(&user)
    try await storeUser(user, sessionToken: session.bearerToken)
    return user
  }
}
