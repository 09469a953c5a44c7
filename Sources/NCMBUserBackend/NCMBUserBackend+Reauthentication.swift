import Foundation
import UserBackendKit

extension NCMBUserBackend {
  /// Signs the signed-in user in again with `POST /2013-09-01/login` (the requests of
  /// ``signIn(_:)``). When the answer's `objectId` is the signed-in user's, its session
  /// token replaces the stored one (`.tokenRefreshed` is published when it changed) and
  /// the stored user keeps what the answer leaves out. When it is another user's,
  /// nothing is stored and `.userMismatch` is thrown: the signed-in user stays.
  ///
  /// - Returns: the new session; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError``: `.notSignedIn`, `.invalidInput`, `.invalidEmail`
  ///   before any request; `.userMismatch`, `.invalidCredentials` (E401002), `.network`,
  ///   `.server`, `.malformedResponse`.
  public func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let session = try await requireSession()
    let (response, answered) = try await authenticate(credential)
    guard response.objectId == session.user.id else {
      throw UserBackendError(
        .userMismatch,
        message: "The credential belongs to another account than the signed-in user.")
    }
    guard let token = response.sessionToken, !token.isEmpty else {
      throw NCMBClient.malformed("login", "has no sessionToken")
    }
    var user = answered
    let old = session.user
    user.phoneNumber = old.phoneNumber
    if response.displayName == nil { user.displayName = old.displayName }
    if response.photoURL == nil { user.photoURL = old.photoURL }
    if user.emailVerified == nil { user.emailVerified = old.emailVerified }
    if user.createdAt == nil { user.createdAt = old.createdAt }
    user.providers = NCMBUserMapping.providers(user.providers + old.providers)
    user.isAnonymous = user.providers == ["anonymous"]
    user = AnswerLimits.keepingUsableProfile(user)
    let renewed = AuthSession(
      user: user, bearerToken: token, refreshToken: nil, expiresAt: nil, isNewUser: false)
    let stored = try await sessions.update { state in
      guard state.session?.bearerToken == session.bearerToken else { return false }
      state.session = renewed
      return true
    }
    if stored && token != session.bearerToken {
      sessions.publish(.tokenRefreshed, user: user)
    }
    return renewed
  }

  /// Turns the signed-in anonymous user into a password account with the same
  /// `objectId`: `PUT /2013-09-01/users/{objectId}` with `userName`, `password` and, for
  /// an email identifier, `mailAddress` (the shape ``signUp(_:)`` sends). The session
  /// token stays. The user's providers become `["password"]` and `isAnonymous` becomes
  /// `false` (the service may keep the `authData.anonymous` entry; it is not listed, see
  /// ``NCMBUserMapping/providers(_:)``).
  ///
  /// - Returns: the session with the upgraded user; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.invalidInput(field: "credential")`
  ///   when the signed-in user is not anonymous; `.invalidInput`, `.invalidEmail`,
  ///   `.weakPassword` before any request; `.accountAlreadyExists` (E409001: the user
  ///   name or address belongs to another account), `.sessionExpired`, `.network`,
  ///   `.server`, `.malformedResponse`.
  public func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let session = try await requireSession()
    guard session.user.isAnonymous else {
      throw UserBackendError(
        .invalidInput(
          field: "credential", reason: "the signed-in user is not an anonymous (guest) user"))
    }
    let valid = try CredentialValidation.validate(
      credential, forSignUp: true, capabilities: capabilities)
    let (userName, mailAddress) = Self.wireIdentifier(valid.identifier)
    let request = NCMBUpdateUserRequest(
      userName: userName, mailAddress: mailAddress, password: valid.password)
    let user = try await updateUser(request, session: session) { user in
      user.username = userName
      if let mailAddress { user.email = mailAddress }
      user.providers = NCMBUserMapping.providers(user.providers + ["password"])
      user.isAnonymous = false
    }
    var upgraded = session
    upgraded.user = user
    upgraded.isNewUser = false
    try await sessions.update { state in
      guard state.session?.bearerToken == session.bearerToken else { return false }
      state.session = upgraded
      return true
    }
    return upgraded
  }
}
