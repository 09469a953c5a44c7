import AccountDatabase
import Foundation
import UserBackendKit

// Account management (`docs/wire/firebase-auth.md`, "Account management in the
// emulator"): `accounts:update` (profile, email, password, linking a password to an
// anonymous user, applying a `VERIFY_EMAIL` code) and `accounts:resetPassword`.
extension FirebaseAuthHandler {
  /// `accounts:update`.
  ///
  /// - With `oobCode` (and no `idToken`): applies a `VERIFY_EMAIL` code →
  ///   `{localId, email, emailVerified: true, providerUserInfo, …}`; `INVALID_OOB_CODE`
  ///   (unknown, used, another type, or the email changed since), `EXPIRED_OOB_CODE`,
  ///   `USER_DISABLED`.
  /// - With `idToken`: `displayName`, `photoUrl` (under the client library's rule,
  ///   ``profileChange(_:_:removed:)``: `INVALID_DISPLAY_NAME`, `INVALID_ARGUMENT`),
  ///   `deleteAttribute` (`DISPLAY_NAME`, `PHOTO_URL`), `email` (`EMAIL_EXISTS`; clears `emailVerified`), `password`
  ///   (`WEAK_PASSWORD`; revokes earlier tokens). `email` + `password` on an anonymous user
  ///   links them (same `localId`, provider `password`). A password or email change of a
  ///   non-anonymous user needs an ID token whose `auth_time` is at most
  ///   ``recentLoginWindow`` seconds old, else `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`. New
  ///   tokens are returned when the password or the email changed, after linking, and
  ///   for `returnSecureToken: true`.
  ///
  /// Email changes are allowed (as with email enumeration protection off; production
  /// projects with it on answer `OPERATION_NOT_ALLOWED` and want
  /// `VERIFY_AND_CHANGE_EMAIL`).
  func update(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    if body.string("idToken") == nil, let code = body.string("oobCode") {
      return try applyVerificationCode(code)
    }
    let (user, signIn) = try tokens.verify(idToken: body.string("idToken"))
    // Every field is checked before anything is written.
    let deleted = Set(body.strings("deleteAttribute"))
    let displayName = try Self.profileChange(
      body.string("displayName"), .displayName, removed: deleted.contains("DISPLAY_NAME"))
    let photoURL = try Self.profileChange(
      body.string("photoUrl"), .photoURL, removed: deleted.contains("PHOTO_URL"))
    let newEmail = try body.string("email").map { email throws(FirebaseError) in
      try Self.validEmail(email)
    }
    let newPassword = body.string("password")
    if let newPassword {
      try Self.checkPasswordLength(newPassword)
      guard newPassword.count >= CredentialValidation.minimumPasswordLength else {
        throw .weakPassword
      }
    }
    let emailChanges = newEmail != nil && newEmail != user.email
    var updated = user
    var provider = signIn.provider
    if user.isAnonymous, let newEmail, let newPassword {
      // Linking a password to a guest: no recent sign-in needed (a guest cannot sign in
      // again).
      if try firebaseStore({ try store.user(email: newEmail) }) != nil { throw .emailExists }
      updated = try firebaseStore {
        try store.linkPassword(userID: user.id, email: newEmail, password: newPassword)
      }
      provider = "password"
    } else {
      if emailChanges || newPassword != nil { try requireRecentSignIn(signIn) }
      if emailChanges, let newEmail {
        if try firebaseStore({ try store.user(email: newEmail) }) != nil { throw .emailExists }
        updated = try firebaseStore { try store.updateEmail(userID: user.id, to: newEmail) }
      }
      if let newPassword {
        try firebaseStore { try store.updatePassword(userID: user.id, to: newPassword) }
      }
    }
    if displayName != .keep || photoURL != .keep {
      _ = try firebaseStore {
        try store.updateProfile(userID: user.id, displayName: displayName, photoURL: photoURL)
      }
    }
    guard let current = try firebaseStore({ try store.user(id: user.id) }) else {
      throw .userNotFound
    }
    updated = current
    var response = Self.userInfo(updated, signIn: signIn)
    response["kind"] = "identitytoolkit#SetAccountInfoResponse"
    for key in ["createdAt", "lastLoginAt", "validSince", "disabled", "passwordUpdatedAt"] {
      response[key] = nil
    }
    let newSignIn = provider != signIn.provider
    if newPassword != nil || emailChanges || body.bool("returnSecureToken") == true {
      let issued = try tokens.issue(
        for: updated, provider: provider, subject: newSignIn ? nil : signIn.subject)
      response.merge(issued.fields) { $1 }
    }
    return response
  }

  /// `accounts:signUp` with `idToken`, `email` and `password` (how the JS SDK links now):
  /// links them to the token's anonymous user like ``update(_:)`` does and answers as
  /// sign-up (`localId`, `email`, new tokens). `MISSING_EMAIL`, `MISSING_PASSWORD`,
  /// `INVALID_EMAIL`, `EMAIL_EXISTS`, `WEAK_PASSWORD`; a user that is not anonymous is
  /// `OPERATION_NOT_ALLOWED` (this emulator links passwords to guests only).
  func linkBySignUp(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let (user, _) = try tokens.verify(idToken: body.string("idToken"))
    guard let email = body.string("email") else { throw .missingEmail }
    guard let password = body.string("password") else { throw .missingPassword }
    guard user.isAnonymous else {
      throw FirebaseError("OPERATION_NOT_ALLOWED", "only an anonymous user can be linked here")
    }
    let canonical = try Self.validEmail(email)
    try Self.checkPasswordLength(password)
    if try firebaseStore({ try store.user(email: canonical) }) != nil { throw .emailExists }
    guard password.count >= CredentialValidation.minimumPasswordLength else {
      throw .weakPassword
    }
    let linked = try firebaseStore {
      try store.linkPassword(userID: user.id, email: canonical, password: password)
    }
    let issued = try tokens.issue(for: linked, provider: "password")
    return issued.fields.merging(
      [
        "kind": "identitytoolkit#SignupNewUserResponse", "localId": linked.id,
        "email": canonical,
      ]) { $1 }
  }

  /// `accounts:resetPassword`: `oobCode` alone checks a `PASSWORD_RESET` code without
  /// using it (the SDKs' `verifyPasswordResetCode`); with `newPassword` it sets the
  /// password and uses the code (earlier tokens are revoked). Both answer
  /// `{"kind","email","requestType":"PASSWORD_RESET"}`. Errors: `MISSING_OOB_CODE`,
  /// `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, then `WEAK_PASSWORD`, `USER_DISABLED`.
  func resetPassword(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    guard let code = body.string("oobCode"), !code.isEmpty else {
      throw FirebaseError("MISSING_OOB_CODE")
    }
    let found = try firebaseStore { try store.outOfBandCode(code, of: .passwordReset) }
    if let newPassword = body.string("newPassword") {
      try Self.checkPasswordLength(newPassword)
      guard newPassword.count >= CredentialValidation.minimumPasswordLength else {
        throw .weakPassword
      }
      _ = try firebaseStore {
        try store.completePasswordReset(code: code, newPassword: newPassword)
      }
    }
    return [
      "kind": "identitytoolkit#ResetPasswordResponse", "email": found.email,
      "requestType": OutOfBandRequestType.passwordReset.rawValue,
    ]
  }

  /// Records a `PASSWORD_RESET` code when an enabled account has `email` (nothing for an
  /// unknown one, and the same answer, as under email enumeration protection).
  func issuePasswordResetCode(email: String) throws(FirebaseError) {
    guard let user = try firebaseStore({ try store.user(email: email) }), !user.disabled else {
      return
    }
    _ = try firebaseStore { try store.issueOutOfBandCode(.passwordReset, userID: user.id) }
  }

  /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` when the sign-in behind an ID token is older than
  /// ``recentLoginWindow`` seconds (never when it is `nil`).
  func requireRecentSignIn(_ signIn: FirebaseTokens.SignIn) throws(FirebaseError) {
    guard let recentLoginWindow else { return }
    guard Double(tokens.nowSeconds - signIn.authTime) <= recentLoginWindow else {
      throw FirebaseError("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }
  }

  private func applyVerificationCode(_ code: String) throws(FirebaseError) -> [String: Any] {
    let user = try firebaseStore { try store.applyEmailVerification(code: code) }
    let signIn = FirebaseTokens.SignIn(
      uid: user.id, authTime: tokens.nowSeconds, provider: user.providers.first ?? "password",
      subject: nil)
    var response = Self.userInfo(user, signIn: signIn)
    response["kind"] = "identitytoolkit#SetAccountInfoResponse"
    for key in ["createdAt", "lastLoginAt", "validSince", "disabled", "passwordUpdatedAt"] {
      response[key] = nil
    }
    return response
  }
}
