import AccountDatabase
import Foundation
import UserBackendKit

// Email/password and account endpoints (`docs/wire/firebase-auth.md` §1; check order
// from §7.3 "signUp check order" and "signInWithPassword order").
extension FirebaseAuthHandler {
  /// `accounts:signUp`: email + password, or anonymous when neither is given.
  func signUp(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    if body.has("localId") { throw FirebaseError("UNEXPECTED_PARAMETER", "User ID") }
    if body.has("idToken") { return try linkBySignUp(body) }
    let email = body.string("email")
    let password = body.string("password")
    // The library's rule (`FirebaseProfileFields.swift`); "" is no name.
    let displayName = try Self.profileChange(body.string("displayName"), .displayName).value
    let kind = "identitytoolkit#SignupNewUserResponse"
    if email == nil && password == nil {
      let user = try firebaseStore {
        try store.createUser(
          NewUser(displayName: displayName, provider: "anonymous", isAnonymous: true))
      }
      let issued = try tokens.issue(for: user, provider: "anonymous")
      return issued.fields.merging(["kind": kind, "localId": user.id, "email": ""]) { $1 }
    }
    guard let email else { throw .missingEmail }
    guard let password else { throw .missingPassword }
    let canonical = try Self.validEmail(email)
    try Self.checkPasswordLength(password)
    if try firebaseStore({ try store.user(email: canonical) }) != nil { throw .emailExists }
    guard password.count >= CredentialValidation.minimumPasswordLength else {
      throw .weakPassword
    }
    // The UNIQUE index decides a race between concurrent sign-ups of one email; the
    // answer is sent only after the row is committed.
    let user = try firebaseStore {
      try store.createUser(NewUser(email: canonical, password: password, displayName: displayName))
    }
    let issued = try tokens.issue(for: user, provider: "password")
    var response = issued.fields.merging(
      ["kind": kind, "localId": user.id, "email": canonical]) { $1 }
    if let displayName { response["displayName"] = displayName }
    return response
  }

  /// `accounts:signInWithPassword`, with email-enumeration protection on (unknown email
  /// and wrong password are both `INVALID_LOGIN_CREDENTIALS`, §5.3).
  func signInWithPassword(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    guard let email = body.string("email") else { throw .missingEmail }
    let canonical = try Self.validEmail(email)
    guard let password = body.string("password"), !password.isEmpty else {
      throw .missingPassword
    }
    try Self.checkPasswordLength(password)
    guard let user = try firebaseStore({ try store.user(email: canonical) }) else {
      throw .invalidLoginCredentials
    }
    guard !user.disabled else { throw .userDisabled }
    guard try firebaseStore({ try store.verifyPassword(password, userID: user.id) }) else {
      throw .invalidLoginCredentials
    }
    let issued = try tokens.issue(for: user, provider: "password")
    return issued.fields.merging([
      "kind": "identitytoolkit#VerifyPasswordResponse", "localId": user.id,
      "email": user.email ?? canonical, "displayName": user.displayName ?? "",
      "registered": true,
    ]) { $1 }
  }

  /// `accounts:lookup` by `idToken`.
  func lookup(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let (user, signIn) = try tokens.verify(idToken: body.string("idToken"))
    return [
      "kind": "identitytoolkit#GetAccountInfoResponse",
      "users": [Self.userInfo(user, signIn: signIn)],
    ]
  }

  /// `accounts:delete` by `idToken`.
  func delete(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let (user, signIn) = try tokens.verify(idToken: body.string("idToken"))
    try requireRecentSignIn(signIn)
    guard try firebaseStore({ try store.deleteUser(id: user.id) }) else { throw .userNotFound }
    return ["kind": "identitytoolkit#DeleteAccountResponse"]
  }

  /// `accounts:sendOobCode`: `PASSWORD_RESET` (recorded in the store, with a code when an
  /// account has the email; the same answer for unknown emails, as under enumeration
  /// protection) and `VERIFY_EMAIL` (a code for the ID token's user). The codes are listed
  /// at `/emulator/v1/projects/{id}/oobCodes`.
  func sendOobCode(_ body: WireObject) throws(FirebaseError) -> [String: Any] {
    let kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    switch body.string("requestType") {
    case nil:
      throw FirebaseError("MISSING_REQ_TYPE")
    case "PASSWORD_RESET":
      guard let email = body.string("email") else { throw .missingEmail }
      let canonical = try Self.validEmail(email)
      try firebaseStore { try store.recordPasswordResetRequest(email: canonical) }
      try issuePasswordResetCode(email: canonical)
      return ["kind": kind, "email": canonical]
    case "VERIFY_EMAIL":
      let (user, _) = try tokens.verify(idToken: body.string("idToken"))
      guard let email = user.email else { throw FirebaseError("MISSING_EMAIL") }
      _ = try firebaseStore { try store.issueOutOfBandCode(.verifyEmail, userID: user.id) }
      return ["kind": kind, "email": email]
    case let other?:
      throw FirebaseError("INVALID_REQ_TYPE", "\(other) is not supported by this emulator")
    }
  }

  /// The canonical email (``IdentifierCanonicalization/email(_:)``, the form every layer
  /// stores), or `INVALID_EMAIL` for any email it refuses: not one `@` with text on both
  /// sides, whitespace, control or format characters, a domain IDNA refuses, too long.
  static func validEmail(_ email: String) throws(FirebaseError) -> String {
    guard let canonical = try? IdentifierCanonicalization.email(email) else {
      throw .invalidEmail
    }
    return canonical
  }

  /// A password of at most ``CredentialValidation/maximumPasswordLength`` characters, else
  /// ``FirebaseError/passwordTooLong``.
  static func checkPasswordLength(_ password: String) throws(FirebaseError) {
    guard CredentialValidation.limitedLength(password) <= CredentialValidation.maximumPasswordLength
    else {
      throw .passwordTooLong
    }
  }

  /// `value` without its fraction (toward zero) as decimal text. Never traps: the store
  /// refuses a time outside 0001…9999 when it reads a row (a typed error, answered 500), so
  /// a value beyond `Int64` can only come from a `UserRecord` built by hand; it is clamped.
  static func wholeText(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let bound = 9.0e18
    return String(Int64(min(max(value.rounded(.towardZero), -bound), bound)))
  }

  /// One `users[]` entry of `accounts:lookup` (§1, "Get user"): times in milliseconds
  /// as strings (`lastLoginAt` is the last sign-in, else the creation), `validSince` in
  /// seconds as a string; `emailVerified` from the stored account only (an identity
  /// provider's word is recorded there at sign-in), never from the token.
  static func userInfo(_ user: UserRecord, signIn: FirebaseTokens.SignIn) -> [String: Any] {
    let milliseconds = { (date: Date) in Self.wholeText(date.timeIntervalSince1970 * 1000) }
    var info: [String: Any] = [
      "localId": user.id,
      "emailVerified": user.email != nil && user.emailVerified,
      "disabled": user.disabled, "createdAt": milliseconds(user.createdAt),
      "lastLoginAt": milliseconds(user.lastSignInAt ?? user.createdAt),
      "validSince": Self.wholeText(user.validSince.timeIntervalSince1970),
    ]
    if let email = user.email { info["email"] = email }
    if let name = user.displayName { info["displayName"] = name }
    if let photo = user.photoURL { info["photoUrl"] = photo }
    if let phone = user.phoneNumber { info["phoneNumber"] = phone }
    if user.providers.contains("password") {
      info["passwordUpdatedAt"] = (user.validSince.timeIntervalSince1970 * 1000).rounded()
    }
    info["providerUserInfo"] = user.providers.filter { $0 != "anonymous" }.map {
      provider -> [String: Any] in
      var entry: [String: Any] = ["providerId": provider]
      switch provider {
      case "password":
        entry["rawId"] = user.email ?? user.id
        entry["federatedId"] = user.email ?? user.id
        if let email = user.email { entry["email"] = email }
      case "phone":
        entry["rawId"] = user.phoneNumber ?? user.id
        if let phone = user.phoneNumber { entry["phoneNumber"] = phone }
      default:
        let subject = provider == signIn.provider ? signIn.subject ?? user.id : user.id
        entry["rawId"] = subject
        entry["federatedId"] = subject
        if let email = user.email { entry["email"] = email }
      }
      if let name = user.displayName { entry["displayName"] = name }
      return entry
    }
    return info
  }
}
