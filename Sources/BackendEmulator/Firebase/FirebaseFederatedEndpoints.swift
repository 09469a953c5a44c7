import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

// Phone and identity-provider sign-in, the token exchange and the emulator-only
// endpoints (`docs/wire/firebase-auth.md` §2, §3, §4, §7.2).
extension FirebaseAuthHandler {
  /// `accounts:sendVerificationCode`: starts a phone verification; the code is readable at
  /// `GET /emulator/v1/projects/{id}/verificationCodes`. App-verification fields
  /// (`recaptchaToken`, `iosReceipt`, ...) are ignored, as by the Auth Emulator.
  func sendVerificationCode(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    // Production answers INVALID_PHONE_NUMBER for a missing number too (§3).
    guard let number = body.string("phoneNumber"),
      let phone = try? IdentifierCanonicalization.phoneNumber(number)
    else { throw FirebaseError("INVALID_PHONE_NUMBER", "Invalid format.") }
    let verification = try firebaseStore { try store.startPhoneVerification(phoneNumber: phone) }
    return ["sessionInfo": verification.verificationID]
  }

  /// `accounts:signInWithPhoneNumber` with `sessionInfo` + `code`: signs in the account
  /// with that number, creating it on first use.
  func signInWithPhoneNumber(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    if body.has("idToken") || body.has("temporaryProof") {
      throw .notImplemented("accounts:signInWithPhoneNumber linking")
    }
    guard let sessionInfo = body.string("sessionInfo"), !sessionInfo.isEmpty else {
      throw FirebaseError("MISSING_SESSION_INFO")
    }
    guard let code = body.string("code"), !code.isEmpty else { throw FirebaseError("MISSING_CODE") }
    let phone = try firebaseStore {
      try store.completePhoneVerification(verificationID: sessionInfo, code: code)
    }
    let (user, isNew) = try findOrCreate(
      find: { try store.user(phoneNumber: phone) },
      create: { try store.createUser(NewUser(phoneNumber: phone, provider: "phone")) })
    guard !user.disabled else { throw .userDisabled }
    let issued = try tokens.issue(for: user, provider: "phone")
    return issued.fields.merging([
      "kind": "identitytoolkit#VerifyPhoneNumberResponse", "localId": user.id,
      "isNewUser": isNew, "phoneNumber": phone,
    ]) { $1 }
  }

  /// `accounts:signInWithIdp` with `postBody` `id_token=…&providerId=…&nonce=…` and
  /// optionally Apple's `user={"name":{"firstName","lastName"}}`, whose name becomes the
  /// new account's display name when the token has no `name` claim (a name the client
  /// library's rule refuses is dropped, ``providerDisplayName(_:)``). A `sub` longer than
  /// ``maximumSubjectLength`` is `INVALID_IDP_RESPONSE`, a `providerId` longer than
  /// ``maximumProviderIDLength`` `INVALID_PROVIDER_ID`.
  ///
  /// The ID token may be unsigned (any signature is ignored, as by the Auth Emulator);
  /// it needs a `sub`, must not be past its `exp` by the store clock, and when either
  /// side has a nonce, SHA-256 hex of the raw `nonce` must equal the token's `nonce`
  /// claim, else `MISSING_OR_INVALID_NONCE` (§4).
  func signInWithIdp(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    if body.has("idToken") || body.has("pendingToken") {
      throw .notImplemented("accounts:signInWithIdp linking")
    }
    guard let postBody = body.string("postBody") else {
      throw FirebaseError("INVALID_IDP_RESPONSE", "postBody is missing")
    }
    let form = WireObject.parseForm(postBody)
    guard let providerID = form.string("providerId"), !providerID.isEmpty else {
      throw FirebaseError("INVALID_PROVIDER_ID", "providerId is missing")
    }
    guard providerID.unicodeScalars.count <= Self.maximumProviderIDLength else {
      throw FirebaseError(
        "INVALID_PROVIDER_ID",
        "providerId is longer than \(Self.maximumProviderIDLength) characters")
    }
    guard let idToken = form.string("id_token") else {
      if form.has("access_token") { throw .notImplemented("signInWithIdp with access_token") }
      throw FirebaseError("INVALID_IDP_RESPONSE", "id_token is missing")
    }
    let claims = try Self.idpClaims(idToken)
    guard let subject = claims.string("sub"), !subject.isEmpty else {
      throw FirebaseError("INVALID_IDP_RESPONSE", "the ID token has no sub claim")
    }
    guard subject.unicodeScalars.count <= Self.maximumSubjectLength else {
      throw FirebaseError(
        "INVALID_IDP_RESPONSE",
        "the ID token's sub claim is longer than \(Self.maximumSubjectLength) characters")
    }
    if let expiry = claims.fields["exp"] as? NSNumber,
      expiry.doubleValue <= store.clock.now().timeIntervalSince1970
    {
      throw FirebaseError("INVALID_IDP_RESPONSE", "the ID token has expired")
    }
    let tokenNonce = claims.string("nonce")
    let rawNonce = form.string("nonce")
    if tokenNonce != nil || rawNonce != nil {
      guard let tokenNonce, let rawNonce, Nonce.sha256Hex(rawNonce) == tokenNonce.lowercased()
      else {
        throw FirebaseError(
          "MISSING_OR_INVALID_NONCE", "the SHA-256 of the raw nonce does not match the ID token")
      }
    }
    // An email claim the canonicaliser refuses is dropped, not stored.
    let email = claims.string("email").flatMap { try? IdentifierCanonicalization.email($0) }
    let emailVerified = claims.bool("email_verified") ?? false
    let (found, isNew) = try findOrCreate(
      find: { try store.user(provider: providerID, subject: subject) },
      create: {
        try store.createUser(
          NewUser(
            email: email,
            displayName: Self.providerDisplayName([
              claims.string("name"), Self.appleUserName(form.string("user")),
            ]),
            provider: providerID,
            providerSubject: subject))
      })
    var user = found
    guard !user.disabled else { throw .userDisabled }
    // The provider's word on the address it vouched for is recorded on the account (as
    // production marks it verified): tokens and lookups read the stored account only.
    let vouched = emailVerified && user.email != nil && user.email == email
    if vouched && !user.emailVerified {
      try firebaseStore { try store.setEmailVerified(userID: user.id, true) }
      user.emailVerified = true
    }
    let issued = try tokens.issue(for: user, provider: providerID, subject: subject)
    var response = issued.fields.merging([
      "kind": "identitytoolkit#VerifyAssertionResponse", "providerId": providerID,
      "federatedId": subject, "localId": user.id, "isNewUser": isNew,
      "emailVerified": user.email != nil && emailVerified,
    ]) { $1 }
    if let email = user.email { response["email"] = email }
    if let name = user.displayName { response["displayName"] = name }
    return response
  }

  /// The Secure Token exchange (§2); keys in snake_case or camelCase.
  func exchangeRefreshToken(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    guard let grantType = body.string(anyOf: "grant_type", "grantType") else {
      throw FirebaseError("MISSING_GRANT_TYPE")
    }
    guard grantType == "refresh_token" else { throw FirebaseError("INVALID_GRANT_TYPE") }
    guard let refreshToken = body.string(anyOf: "refresh_token", "refreshToken"),
      !refreshToken.isEmpty
    else { throw FirebaseError("MISSING_REFRESH_TOKEN") }
    let (issued, user) = try tokens.refresh(refreshToken)
    return [
      "access_token": issued.idToken, "id_token": issued.idToken,
      "refresh_token": issued.refreshToken, "expires_in": String(FirebaseTokens.lifetime),
      "token_type": "Bearer", "user_id": user.id, "project_id": "12345",
    ]
  }

  /// `/emulator/v1/projects/{id}/{resource}` (§7.2): `DELETE accounts`,
  /// `GET verificationCodes`, `GET oobCodes` (password-reset requests; no codes), `GET config`.
  func emulatorEndpoint(_ resource: String, method: HTTPMethod) throws(FirebaseError)
    -> HTTPResponse
  {
    switch (method.rawValue, resource) {
    case ("DELETE", "accounts"):
      try firebaseStore { try store.deleteAllUsers() }
      return WireResponse.json(200, [:])
    case ("GET", "verificationCodes"):
      let pending = try firebaseStore { try store.pendingPhoneVerifications() }
      return WireResponse.json(
        200,
        [
          "verificationCodes": pending.map {
            ["code": $0.code, "phoneNumber": $0.phoneNumber, "sessionInfo": $0.verificationID]
          }
        ])
    case ("GET", "config"):
      return WireResponse.json(
        200,
        [
          "signIn": ["allowDuplicateEmails": false],
          "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
        ])
    default:
      throw .notFound
    }
  }

  /// Finds an account, or creates it; a concurrent creation that wins the UNIQUE index
  /// race is found on a second look.
  private func findOrCreate(
    find: () throws -> UserRecord?, create: () throws -> UserRecord
  ) throws(FirebaseError) -> (UserRecord, isNew: Bool) {
    if let existing = try firebaseStore(find) { return (existing, false) }
    do {
      return (try create(), true)
    } catch UserStoreError.duplicate(field: "email") {
      throw .emailExists
    } catch UserStoreError.duplicate {
      guard let existing = try firebaseStore(find) else {
        throw FirebaseError.from(UserStoreError.duplicate(field: ""))
      }
      return (existing, false)
    } catch {
      throw FirebaseError.from(error)
    }
  }

  /// The claims of an IdP ID token: an unsigned or signed JWT (signature not checked), or
  /// a JSON object string.
  private static func idpClaims(_ idToken: String) throws(FirebaseError) -> WireObject {
    if let token = try? JSONWebToken(parsing: idToken),
      let claims = WireObject.parse(token.payload)
    {
      return claims
    }
    if idToken.hasPrefix("{"), let claims = WireObject.parse(Data(idToken.utf8)) {
      return claims
    }
    throw FirebaseError("INVALID_IDP_RESPONSE", "the id_token is not a JWT or JSON object")
  }

  /// "firstName lastName" from Apple's `user` JSON (`{"name":{"firstName","lastName"}}`),
  /// or `nil` when absent or unreadable.
  static func appleUserName(_ json: String?) -> String? {
    guard let json, let user = WireObject.parse(Data(json.utf8)),
      let name = user.object("name")
    else { return nil }
    let parts = [name.string("firstName"), name.string("lastName")].compactMap { $0 }
      .filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }
}
