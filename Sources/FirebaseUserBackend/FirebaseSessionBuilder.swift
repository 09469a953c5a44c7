import Foundation
import UserBackendKit

/// The ID token claims the adapter reads, without checking the signature
/// (docs/wire/firebase-auth.md §6).
struct FirebaseIDTokenClaims: Decodable, Sendable, Hashable {
  /// The `firebase` claim.
  struct FirebaseClaim: Decodable, Sendable, Hashable {
    /// `"password"`, `"anonymous"`, `"phone"`, `"apple.com"`, …
    let signInProvider: String?

    enum CodingKeys: String, CodingKey { case signInProvider = "sign_in_provider" }
  }

  /// The uid.
  let sub: String?
  /// Expiry, seconds since 1970.
  let exp: Double?
  /// The email, when the account has one.
  let email: String?
  /// The E.164 phone number, when the account has one.
  let phoneNumber: String?
  /// The display name, when set.
  let name: String?
  /// The `firebase` claim.
  let firebase: FirebaseClaim?

  enum CodingKeys: String, CodingKey {
    case sub, exp, email, name, firebase
    case phoneNumber = "phone_number"
  }

  /// The claims of `idToken`, or `nil` when it is not a readable JWT. Read from the
  /// parsed token's claims rather than decoded a second time (`baas bench`).
  static func read(_ idToken: String) -> FirebaseIDTokenClaims? {
    guard let token = try? JSONWebToken(parsing: idToken) else { return nil }
    return FirebaseIDTokenClaims(
      sub: token.stringClaim("sub"), exp: token.numericClaim("exp"),
      email: token.stringClaim("email"), phoneNumber: token.stringClaim("phone_number"),
      name: token.stringClaim("name"),
      firebase: FirebaseClaim(signInProvider: token.stringClaim("sign_in_provider", in: "firebase"))
    )
  }
}

/// The tokens a sign-in answer carries.
struct FirebaseTokenGrant: Sendable, Hashable {
  /// The ID token (a JWT).
  let idToken: String
  /// The refresh token.
  let refreshToken: String
  /// The lifetime from `expiresIn`, when sent.
  let expiresIn: TimeInterval?
}

/// Builds ``User`` and ``AuthSession`` values from Firebase answers and ID token claims.
enum FirebaseSessionBuilder {
  /// A user from answer fields, filling gaps from the ID token claims.
  ///
  /// - Parameters:
  ///   - providers: provider IDs from `providerUserInfo[]`; when empty, the token's
  ///     `firebase.sign_in_provider`, else `defaultProvider`.
  static func user(
    id: String, email: String?, displayName: String?, phoneNumber: String?,
    providers: [String], claims: FirebaseIDTokenClaims?, defaultProvider: String
  ) -> User {
    var providerIDs = providers.filter { !$0.isEmpty }
    if providerIDs.isEmpty {
      providerIDs = [claims?.firebase?.signInProvider ?? defaultProvider]
    }
    return User(
      id: id,
      email: nonEmpty(email) ?? nonEmpty(claims?.email),
      phoneNumber: nonEmpty(phoneNumber) ?? nonEmpty(claims?.phoneNumber),
      displayName: nonEmpty(displayName) ?? nonEmpty(claims?.name),
      providers: Array(Set(providerIDs)),
      isAnonymous: providerIDs == ["anonymous"])
  }

  /// A session for `user` holding `grant`; `expiresAt` is the ID token's `exp`, else
  /// `now + expiresIn`.
  /// - Throws: `.malformedResponse` when neither tells the expiry.
  static func session(
    user: User, grant: FirebaseTokenGrant, claims: FirebaseIDTokenClaims?, isNewUser: Bool,
    now: Date
  ) throws -> AuthSession {
    let expiresAt: Date
    if let exp = claims?.exp {
      expiresAt = Date(timeIntervalSince1970: exp)
    } else if let lifetime = grant.expiresIn {
      expiresAt = now.addingTimeInterval(lifetime)
    } else {
      throw UserBackendError(
        .malformedResponse(reason: "the ID token has no exp claim and no expiresIn was sent"))
    }
    guard !grant.idToken.isEmpty, !grant.refreshToken.isEmpty else {
      throw UserBackendError(.malformedResponse(reason: "empty ID token or refresh token"))
    }
    return AuthSession(
      user: user, bearerToken: grant.idToken, refreshToken: grant.refreshToken,
      expiresAt: expiresAt, isNewUser: isNewUser)
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
