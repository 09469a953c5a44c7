import BackendHTTP
import Foundation
import UserBackendKit

extension NCMBUserBackend {
  /// Signs in as a new anonymous user: `POST /2013-09-01/users` with
  /// `{"authData":{"anonymous":{"id":"<UUID>"}}}` (`docs/wire/ncmb.md` §3, "Anonymous login").
  ///
  /// - Returns: a session whose user has `isAnonymous == true`, `providers ==
  ///   ["anonymous"]` and a server-chosen `username`; `isNewUser` is `true`.
  /// - Throws: ``UserBackendError``: `.unsupported` (E403005, disabled for the
  ///   application), `.network`, `.server`, `.malformedResponse`.
  public func signInAnonymously() async throws(UserBackendError) -> AuthSession {
    let body = NCMBAuthDataSignUpRequest(
      authData: NCMBAuthData(anonymous: .init(id: makeUUID().uuidString)))
    let endpoint = NCMBEndpoint(
      method: .post, pathSegments: ["users"], body: try NCMBClient.json(body),
      name: "anonymous sign-in")
    let answer = try await perform(endpoint, sessionToken: nil)
    let response = try NCMBClient.decode(
      NCMBUserResponse.self, from: answer, endpoint: "anonymous sign-in")
    var user = NCMBUserMapping.user(from: response, hasPasswordIdentity: false)
    if user.providers.isEmpty {
      user.providers = ["anonymous"]
      user.isAnonymous = true
    }
    return try await establish(
      response, user: user, isNewUser: true, endpoint: "anonymous sign-in")
  }

  /// Signs in with Apple: `POST /2013-09-01/users` with `{"authData":{"apple":{"id":
  /// <sub>, "access_token": <authorization code>, "client_id": <client ID>}}}`, the shape
  /// the official NCMB SDKs send for SNS sign-up and login (`docs/wire/ncmb.md` §3). A 201 answer created the
  /// account (`isNewUser == true`); 200 signed in an existing one.
  ///
  /// The service redeems the authorization code with Apple (with the team's key set up in
  /// its dashboard), so `access_token` is the credential's `authorizationCode`, never the
  /// ID token. `id` is the ID token's `sub` claim (the Apple user identifier); `client_id`
  /// is ``NCMBConfiguration/appleClientID`` (the bundle ID) or else the token's `aud`
  /// claim, which for an app is its bundle ID (left out when neither exists). NCMB has no
  /// nonce field: when `rawNonce` is given and the token has a `nonce` claim, the claim
  /// must equal SHA-256(rawNonce) in hex, checked here. NCMB has no display-name field:
  /// the credential's `fullName` becomes the returned user's `displayName` and is kept
  /// in the stored session only.
  ///
  /// - Throws: ``UserBackendError``: before any request `.invalidInput` for `provider`
  ///   (only `"apple.com"`), `idToken` (empty, not a JWT, no `sub`) or
  ///   `authorizationCode` (missing or empty), and
  ///   `.invalidCredentials` when SHA-256(`rawNonce`) is not the token's `nonce` (as on
  ///   the other backends); then `.invalidCredentials` (E401003), `.unsupported` (E403005),
  ///   `.accountAlreadyExists` (E409001), `.network`, `.server`, `.malformedResponse`.
  public func signIn(with credential: IdentityProviderCredential) async throws(UserBackendError)
    -> AuthSession
  {
    let credential = try CredentialValidation.validate(credential)
    guard credential.provider == "apple.com" else {
      throw UserBackendError(
        .invalidInput(field: "provider", reason: "NCMB supports only apple.com"))
    }
    let apple = try appleAuthData(credential)
    let body = NCMBAuthDataSignUpRequest(authData: NCMBAuthData(apple: apple))
    let endpoint = NCMBEndpoint(
      method: .post, pathSegments: ["users"], body: try NCMBClient.json(body),
      name: "Apple sign-in")
    let answer = try await perform(endpoint, sessionToken: nil)
    let response = try NCMBClient.decode(
      NCMBUserResponse.self, from: answer, endpoint: "Apple sign-in")
    var user = NCMBUserMapping.user(from: response, hasPasswordIdentity: false)
    if !user.providers.contains("apple.com") {
      user.providers = NCMBUserMapping.providers(user.providers + ["apple.com"])
    }
    if let name = credential.fullNameForDisplay { user.displayName = name }
    return try await establish(
      response, user: user, isNewUser: answer.status == 201, endpoint: "Apple sign-in")
  }

  /// Asks the server to mail a password-reset link: `POST
  /// /2013-09-01/requestPasswordReset` with `{"mailAddress": <canonical email>}` (201).
  ///
  /// - Throws: ``UserBackendError``: `.invalidInput` / `.invalidEmail` before any
  ///   request; then `.invalidInput` (E400004 / E400006), `.network`, `.server`,
  ///   `.malformedResponse`.
  public func sendPasswordReset(email: String) async throws(UserBackendError) {
    let mailAddress = try CredentialValidation.validateEmail(email)
    let endpoint = NCMBEndpoint(
      method: .post, pathSegments: ["requestPasswordReset"],
      body: try NCMBClient.json(NCMBPasswordResetRequest(mailAddress: mailAddress)),
      name: "password reset")
    let answer = try await perform(endpoint, sessionToken: nil)
    if !answer.body.isEmpty {
      _ = try NCMBClient.decode(
        NCMBPasswordResetResponse.self, from: answer, endpoint: "password reset")
    }
  }

  /// Deletes the signed-in account: `DELETE /2013-09-01/users/{objectId}` with the
  /// session token; then clears the session and publishes `signedOut`.
  ///
  /// - Throws: ``UserBackendError``: `.notSignedIn`; `.sessionExpired` (E401001 /
  ///   E404001: session cleared); `.network` (session kept), `.server`.
  public func deleteAccount() async throws(UserBackendError) {
    let session = try await requireSession()
    let endpoint = try NCMBUserID.endpoint(.delete, userID: session.user.id, name: "delete user")
    _ = try await perform(endpoint, sessionToken: session.bearerToken)
    try await sessions.signOut(session)
  }

  /// `authData.apple` for a credential, checked before any request.
  func appleAuthData(_ credential: IdentityProviderCredential) throws(UserBackendError)
    -> NCMBAuthData.Apple
  {
    guard let token = try? JSONWebToken(parsing: credential.idToken) else {
      throw UserBackendError(.invalidInput(field: "idToken", reason: "is not a JWT"))
    }
    guard let subject = token.stringClaim("sub"), !subject.isEmpty else {
      throw UserBackendError(.invalidInput(field: "idToken", reason: "has no sub claim"))
    }
    guard let code = credential.authorizationCode, !code.isEmpty else {
      throw UserBackendError(
        .invalidInput(
          field: "authorizationCode",
          reason: "is required by NCMB, which redeems it with Apple (pass the "
            + "authorizationCode of Apple's credential)"))
    }
    if let rawNonce = credential.rawNonce, let nonce = token.stringClaim("nonce"),
      Crypto.sha256Hex(rawNonce) != nonce.lowercased()
    {
      throw UserBackendError(
        .invalidCredentials, backendCode: "MISSING_OR_INVALID_NONCE",
        message: "The raw nonce does not match the ID token's nonce claim.")
    }
    return NCMBAuthData.Apple(
      id: subject, accessToken: code,
      clientID: configuration.appleClientID ?? token.stringClaim("aud"))
  }
}
