import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Signs the signed-in user in again with `accounts:signInWithPassword`, which makes
  /// the session recent for sensitive changes (``updatePassword(_:)``,
  /// ``updateEmail(_:)``, ``deleteAccount()``).
  ///
  /// When the answer's `localId` is the signed-in user's, the new tokens replace the
  /// stored ones (the stored user keeps what the sign-in answer does not carry) and
  /// `.tokenRefreshed` is published. When it is another account's, nothing is stored and
  /// `.userMismatch` is thrown: the signed-in user and its tokens stay. An ID token whose
  /// `sub` is not that `localId` is `.malformedResponse`, and nothing is stored either.
  ///
  /// - Returns: the new session; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError``: `.notSignedIn`, `.unsupported(capability:
  ///   .usernamePassword)`, `.invalidInput`, `.invalidEmail` before any request;
  ///   `.userMismatch` (`USER_MISMATCH` too), `.invalidCredentials`, `.userDisabled`,
  ///   `.rateLimited`, `.network`, `.server`, `.malformedResponse`.
  public func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let session = try await state.requireSession()
    let (email, password) = try validatedEmailCredential(credential, forSignUp: false)
    let (response, grant) = try await passwordSignIn(
      email: email, password: password, capability: .reauthentication)
    guard response.localId == session.user.id else {
      throw UserBackendError(
        .userMismatch, backendCode: "USER_MISMATCH",
        message: "The credential belongs to another account than the signed-in user.")
    }
    let claims = try FirebaseSessionBuilder.checkOwner(
      userID: session.user.id, answered: nil, idToken: grant.idToken,
      projectID: configuration.projectID, answer: "accounts:signInWithPassword")
    var user = AnswerLimits.keepingUsableProfile(session.user)
    if let answered = response.email, !answered.isEmpty { user.email = answered }
    if let name = response.displayName, !name.isEmpty {
      user.displayName = AnswerLimits.usableDisplayName(name)
    }
    let renewed = try FirebaseSessionBuilder.session(
      user: user, grant: grant, claims: claims, isNewUser: false, now: clock.now())
    try await store(renewed, replacing: session)
    return renewed
  }

  /// Turns the signed-in anonymous user into an email/password account with the same
  /// user ID: `accounts:update` with the ID token, `email`, `password` and
  /// `returnSecureToken: true`. The answer's tokens replace the stored ones; the user has
  /// provider `"password"` and `isAnonymous == false`.
  ///
  /// Production projects with email enumeration protection may refuse this
  /// (`OPERATION_NOT_ALLOWED`, then `.unsupported(capability: .anonymousUpgrade)`).
  ///
  /// - Returns: the new session; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.invalidInput(field: "credential")`
  ///   when the signed-in user is not anonymous; `.unsupported(capability:
  ///   .usernamePassword)`, `.invalidInput`, `.invalidEmail`, `.weakPassword` before any
  ///   request; `.accountAlreadyExists` (`EMAIL_EXISTS`), `.requiresRecentLogin`,
  ///   `.sessionExpired`, `.network`, `.server`, `.malformedResponse`.
  public func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let stored = try await state.requireSession()
    guard stored.user.isAnonymous else {
      throw UserBackendError(
        .invalidInput(
          field: "credential", reason: "the signed-in user is not an anonymous (guest) user"))
    }
    let (email, password) = try validatedEmailCredential(credential, forSignUp: true)
    return try await update(capability: .anonymousUpgrade, secrets: [password]) { idToken in
      UpdateAccountRequest(idToken: idToken, email: email, password: password)
    }
  }

  /// One `accounts:signInWithPassword` call: the answer and its tokens.
  ///
  /// - Throws: ``UserBackendError``: as ``signIn(_:)``; `.unsupported(capability:
  ///   "multiFactorAuthentication")` when a second factor is required.
  func passwordSignIn(email: String, password: String, capability: Capability)
    async throws(UserBackendError) -> (SignInWithPasswordResponse, FirebaseTokenGrant)
  {
    let response = try await client.send(
      SignInWithPasswordRequest(email: email, password: password), capability: capability,
      secrets: [password])
    if response.mfaPendingCredential != nil {
      throw UserBackendError(
        .unsupported(capability: "multiFactorAuthentication"),
        message: "The account requires a second factor, which this adapter does not support.")
    }
    guard let idToken = response.idToken, let refreshToken = response.refreshToken else {
      throw UserBackendError(
        .malformedResponse(reason: "accounts:signInWithPassword: missing idToken or refreshToken"))
    }
    let grant = FirebaseTokenGrant(
      idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn?.seconds)
    return (response, grant)
  }
}
