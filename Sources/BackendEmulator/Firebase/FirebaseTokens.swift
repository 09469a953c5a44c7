import AccountDatabase
import Foundation
import UserBackendKit

/// Mints and checks the Firebase tokens the emulator hands out (`docs/wire/firebase-auth.md`
/// §6 "The ID token", §7.3 "ID tokens", "ID token checks").
///
/// - ID tokens are unsigned JWTs (`alg: none`, empty signature, like the Auth Emulator's)
///   with the production claims: `iss` `https://securetoken.google.com/<project>`, `aud`,
///   `sub` = `user_id`, `iat`, `exp` (`iat` + 3600 s), `auth_time`, `email`,
///   `email_verified`, `phone_number`, `name`, `provider_id` (`anonymous` only) and
///   `firebase {identities, sign_in_provider}`.
/// - Refresh tokens are opaque, as production's: a store refresh token (32 random bytes,
///   base64url). The sign-in they continue (user, `auth_time`, provider, the provider's
///   subject) is kept with the token in the store (``SignIn``, as
///   `UserStore.signInFacts(refreshToken:)`), never in the client's hands, so a refresh
///   keeps `auth_time` and `sign_in_provider` and can answer `TOKEN_EXPIRED` after a
///   password change, as production does, and a client cannot change them (before
///   schema version 4 they were base64url JSON inside the token, which a client could
///   edit; such tokens are refused `INVALID_REFRESH_TOKEN`). `email_verified` is always
///   the stored account's. As Firebase's, they do not rotate: a refresh answers the same
///   refresh token, which stays valid until it is revoked, the password changes or the
///   account is deleted, and presenting it again is not an error (the store's
///   `RefreshTokenPolicy.stable`; the fake backend's rotation is its own).
struct FirebaseTokens {
  /// ID token lifetime in seconds (`expiresIn` is this as a string).
  static let lifetime = 3600

  let store: UserStore
  let projectID: String
  /// Signs ID tokens RS256 when set (`--sign-tokens`); `nil` leaves them unsigned.
  var signing: FirebaseTokenSigning? = nil

  /// What a refresh continues: the sign-in's user, time and provider; stored with the
  /// refresh token as JSON.
  struct SignIn: Codable, Hashable {
    /// The user ID.
    var uid: String
    /// Seconds since 1970 of the original sign-in.
    var authTime: Int
    /// `firebase.sign_in_provider`: `password`, `anonymous`, `phone`, `apple.com`, ...
    var provider: String
    /// The identity provider's subject, for `firebase.identities`.
    var subject: String?
  }

  /// A fresh ID token and refresh token.
  struct Issued {
    var idToken: String
    var refreshToken: String
    var fields: [String: Any] {
      ["idToken": idToken, "refreshToken": refreshToken, "expiresIn": String(lifetime)]
    }
  }

  /// The issuer, `https://securetoken.google.com/<project>`.
  var issuer: String { "https://securetoken.google.com/" + projectID }

  /// The current store time in whole seconds.
  var nowSeconds: Int { Int(store.clock.now().timeIntervalSince1970.rounded(.down)) }

  /// Tokens for a new sign-in of `user` through `provider`; the sign-in is stored with
  /// the refresh token.
  func issue(for user: UserRecord, provider: String, subject: String? = nil)
    throws(FirebaseError) -> Issued
  {
    let signIn = SignIn(uid: user.id, authTime: nowSeconds, provider: provider, subject: subject)
    let facts = String(decoding: (try? JSONEncoder().encode(signIn)) ?? Data(), as: UTF8.self)
    let refreshToken = try firebaseStore {
      try store.issueRefreshToken(userID: user.id, signInFacts: facts)
    }
    return Issued(idToken: idToken(for: user, signIn: signIn), refreshToken: refreshToken)
  }

  /// An ID token for `user`, issued now: unsigned, or RS256 with ``signing``.
  func idToken(for user: UserRecord, signIn: SignIn) -> String {
    let now = nowSeconds
    var identities: [String: Any] = [:]
    var claims: [String: Any] = [
      "iss": issuer, "aud": projectID, "sub": user.id, "user_id": user.id,
      "iat": now, "exp": now + Self.lifetime, "auth_time": signIn.authTime,
    ]
    if let email = user.email {
      claims["email"] = email
      claims["email_verified"] = user.emailVerified
      identities["email"] = [email]
    }
    if let phone = user.phoneNumber {
      claims["phone_number"] = phone
      identities["phone"] = [phone]
    }
    if let name = user.displayName { claims["name"] = name }
    if user.isAnonymous { claims["provider_id"] = "anonymous" }
    if let subject = signIn.subject { identities[signIn.provider] = [subject] }
    claims["firebase"] = ["identities": identities, "sign_in_provider": signIn.provider]
    return signing?.token(claims: claims) ?? JSONWebToken.unsigned(claims: claims)
  }

  /// Checks an ID token sent by a client. With ``signing`` (`--sign-tokens`) the token
  /// must carry this emulator's RS256 signature: an unsigned or forged token is
  /// `INVALID_ID_TOKEN` (without it, unsigned tokens are accepted, as by the Auth
  /// Emulator).
  ///
  /// - Returns: the user and the token's `firebase.sign_in_provider`.
  /// - Throws: `INVALID_ID_TOKEN` (absent, undecodable, wrong `aud`/`iss`, `exp` passed by
  ///   the store clock), `USER_NOT_FOUND`, `USER_DISABLED`, `TOKEN_EXPIRED` (`iat` before
  ///   the account's `validSince`, e.g. after a password change).
  func verify(idToken: String?) throws(FirebaseError) -> (user: UserRecord, signIn: SignIn) {
    guard let idToken, !idToken.isEmpty, let token = try? JSONWebToken(parsing: idToken) else {
      throw .invalidIDToken
    }
    if let signing, !signing.signed(idToken) { throw .invalidIDToken }
    let claims = (try? JSONSerialization.jsonObject(with: token.payload)) as? [String: Any] ?? [:]
    guard claims["aud"] as? String == projectID, claims["iss"] as? String == issuer,
      let uid = claims["sub"] as? String, !uid.isEmpty,
      let issuedAt = token.numericClaim("iat"), let expiry = token.numericClaim("exp")
    else { throw .invalidIDToken }
    guard Double(nowSeconds) < expiry else { throw .invalidIDToken }
    guard let user = try firebaseStore({ try store.user(id: uid) }) else { throw .userNotFound }
    guard !user.disabled else { throw .userDisabled }
    guard issuedAt >= user.validSince.timeIntervalSince1970.rounded(.down) else {
      throw .tokenExpired
    }
    // Client-sent claims may hold any number (1e300): converted without trapping.
    guard let authTime = Int(exactly: (token.numericClaim("auth_time") ?? issuedAt).rounded(.down))
    else { throw .invalidIDToken }
    let firebase = claims["firebase"] as? [String: Any]
    let provider = firebase?["sign_in_provider"] as? String ?? user.providers.first ?? "password"
    let signIn = SignIn(
      uid: uid, authTime: authTime, provider: provider,
      subject: (firebase?["identities"] as? [String: Any])?[provider]
        .flatMap { ($0 as? [Any])?.first as? String })
    return (user, signIn)
  }

  /// Exchanges a refresh token (`docs/wire/firebase-auth.md` §2): reads the sign-in
  /// stored with it, checks the user and the store token (which is kept, not rotated) and
  /// mints a new ID token with the same `auth_time` and provider; the answer carries the
  /// same refresh token.
  ///
  /// - Throws: `INVALID_REFRESH_TOKEN` (unknown, edited, revoked, its account deleted, or
  ///   issued without a stored sign-in: before schema version 4), `USER_NOT_FOUND`,
  ///   `USER_DISABLED`, `TOKEN_EXPIRED` (the sign-in predates a password change).
  func refresh(_ refreshToken: String) throws(FirebaseError) -> (Issued, UserRecord) {
    let facts = try firebaseStore { try store.signInFacts(refreshToken: refreshToken) }
    guard let facts, let signIn = try? JSONDecoder().decode(SignIn.self, from: Data(facts.utf8))
    else { throw FirebaseError("INVALID_REFRESH_TOKEN") }
    guard let user = try firebaseStore({ try store.user(id: signIn.uid) }) else {
      throw .userNotFound
    }
    guard !user.disabled else { throw .userDisabled }
    guard Double(signIn.authTime) >= user.validSince.timeIntervalSince1970.rounded(.down) else {
      throw .tokenExpired
    }
    let redeemed = try firebaseStore {
      try store.redeemRefreshToken(refreshToken, policy: .stable)
    }
    guard redeemed.userID == user.id else { throw FirebaseError("INVALID_REFRESH_TOKEN") }
    let issued = Issued(idToken: idToken(for: user, signIn: signIn), refreshToken: refreshToken)
    return (issued, user)
  }
}
