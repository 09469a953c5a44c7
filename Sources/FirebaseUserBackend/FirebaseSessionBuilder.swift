import Foundation
import UserBackendKit

/// The ID token claims the adapter reads, without checking the signature
/// (docs/wire/firebase-auth.md §6). A claim of an unexpected type reads as absent rather
/// than failing the whole token: the adapter only fills gaps from these.
struct FirebaseIDTokenClaims: Sendable, Hashable {
  /// The `firebase` claim.
  struct FirebaseClaim: Sendable, Hashable {
    /// `"password"`, `"anonymous"`, `"phone"`, `"apple.com"`, …
    let signInProvider: String?
  }

  /// The uid.
  let sub: String?
  /// The project ID the token was issued for.
  let aud: String?
  /// The issuer, `https://securetoken.google.com/<project ID>`.
  let iss: String?
  /// Expiry, seconds since 1970 (the server's clock).
  let exp: Double?
  /// Issue time, seconds since 1970 (the server's clock).
  let iat: Double?
  /// The email, when the account has one.
  let email: String?
  /// The E.164 phone number, when the account has one.
  let phoneNumber: String?
  /// The display name, when set.
  let name: String?
  /// The `firebase` claim, when it is an object.
  let firebase: FirebaseClaim?

  /// Reads each member leniently (see the type's comment) from the claims object.
  init(_ claims: [String: DocumentValue]) {
    func string(_ value: DocumentValue?) -> String? {
      if case .string(let text) = value { text } else { nil }
    }
    func seconds(_ value: DocumentValue?) -> Double? {
      switch value {
      case .integer(let number): Double(number)
      case .double(let number): number
      default: nil
      }
    }
    sub = string(claims["sub"])
    aud = string(claims["aud"])
    iss = string(claims["iss"])
    exp = seconds(claims["exp"])
    iat = seconds(claims["iat"])
    email = string(claims["email"])
    phoneNumber = string(claims["phone_number"])
    name = string(claims["name"])
    if case .map(let members) = claims["firebase"] {
      firebase = FirebaseClaim(signInProvider: string(members["sign_in_provider"]))
    } else {
      firebase = nil
    }
  }

  /// The claims of `idToken`, or `nil` when it is not three segments or its payload is not
  /// one JSON object as the strict reader reads it (``JSONWebToken/claims(of:)``: a claim
  /// name given twice, invalid UTF-8 or text that is not JSON anywhere in the payload
  /// refuses the whole token, as the server-side verifier and the emulator refuse it); the
  /// header is not read. These claims fill gaps in the server's answer, and
  /// ``FirebaseSessionBuilder/checkOwner(userID:answered:idToken:projectID:answer:)``
  /// refuses (never grants) on `sub` and `aud`: access is decided by the servers that
  /// verify the token. The strict reader is also the faster one here: it read a Firebase
  /// ID token's claims in about 60% of `JSONDecoder`'s time (`baas bench`, adapter
  /// overhead).
  static func read(_ idToken: String) -> FirebaseIDTokenClaims? {
    (try? JSONWebToken.claims(of: idToken)).map(FirebaseIDTokenClaims.init)
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
      displayName: AnswerLimits.usableDisplayName(nonEmpty(displayName) ?? nonEmpty(claims?.name)),
      providers: Array(Set(providerIDs)),
      isAnonymous: providerIDs == ["anonymous"])
  }

  /// The longest ID token lifetime believed, in seconds: ``UserBackendKit/TokenLifetime``'s
  /// maximum (365 days), the rule the token verifier applies too.
  static let maximumLifetime: TimeInterval = TokenLifetime.maximum

  /// A session for `user` holding `grant`. `expiresAt` is `now` (the device clock at
  /// receipt) plus the token's lifetime: `expiresIn`, else the ID token's `exp - iat`.
  /// The token's `exp` is never compared with the device clock directly: it is on the
  /// server's clock, and a device clock an hour ahead would make every call refresh.
  /// - Throws: `.malformedResponse` when neither tells the lifetime, or it is not one
  ///   ``UserBackendKit/TokenLifetime`` believes (a positive finite number of seconds from
  ///   10 minutes to a year: a shorter one would make every call a refresh).
  static func session(
    user: User, grant: FirebaseTokenGrant, claims: FirebaseIDTokenClaims?, isNewUser: Bool,
    now: Date
  ) throws(UserBackendError) -> AuthSession {
    var lifetime = grant.expiresIn
    if lifetime == nil, let exp = claims?.exp, let iat = claims?.iat { lifetime = exp - iat }
    guard let lifetime else {
      throw UserBackendError(
        .malformedResponse(reason: "no expiresIn was sent and the ID token has no exp and iat"))
    }
    if let problem = TokenLifetime.problem(lifetime) {
      let source = grant.expiresIn == nil ? "exp - iat" : "expiresIn"
      throw UserBackendError(
        .malformedResponse(reason: "the ID token's lifetime (\(source)) \(problem)"))
    }
    let expiresAt = now.addingTimeInterval(lifetime)
    guard !grant.idToken.isEmpty, !grant.refreshToken.isEmpty else {
      throw UserBackendError(.malformedResponse(reason: "empty ID token or refresh token"))
    }
    return AuthSession(
      user: user, bearerToken: grant.idToken, refreshToken: grant.refreshToken,
      expiresAt: expiresAt, isNewUser: isNewUser)
  }

  /// Checks that the tokens of an answer are readable and belong to `userID`: the
  /// answer's own user ID (`user_id`, `localId`) when it sends one; and, when it carries an
  /// ID token, that token's payload must decode as a JSON object (Firebase ID tokens are
  /// always JWTs, and the JS SDK fails on one it cannot parse) with `sub` equal to
  /// `userID` and, when `projectID` is configured, `aud` equal to it and `iss`, when sent,
  /// `https://securetoken.google.com/<projectID>` (the project the token was issued for; a
  /// refresh answer's `project_id` is the numeric project number, so it is not compared).
  /// Decision: a token of another user, or one that cannot be read, for a stored session
  /// is the server answering wrongly (or someone answering in its place), not a rejection
  /// of the session, so the caller stores nothing and keeps the session it has; clearing
  /// it would let such an answer sign the user out. A token whose `aud` is another project
  /// is a configuration fault, not a malformed answer: the API key (or the emulator the
  /// client reaches) serves another project than the configured project ID, so it is
  /// `.misconfigured(setting: "projectID")` naming both projects
  /// (``projectMismatch(_:projectID:answer:)``), and nothing is stored either.
  /// - Parameters:
  ///   - idToken: the answer's ID token; `nil` for an answer without tokens (an
  ///     `accounts:update` without `returnSecureToken`), which only the user ID check
  ///     meets.
  ///   - answer: the endpoint's name for the message.
  /// - Returns: the ID token's claims; `nil` when `idToken` is `nil`.
  /// - Throws: `.misconfigured(setting: "projectID")` for a token of another project;
  ///   `.malformedResponse` naming the answer otherwise. The user IDs and the token are not
  ///   quoted; the project IDs are (they are no secret).
  static func checkOwner(
    userID: String, answered: String?, idToken: String?, projectID: String?, answer: String
  ) throws(UserBackendError) -> FirebaseIDTokenClaims? {
    func refuse(_ reason: String) -> UserBackendError {
      UserBackendError(.malformedResponse(reason: "the \(answer) answer\(reason)"))
    }
    if let answered, answered != userID { throw refuse(" is for another user") }
    guard let idToken else { return nil }
    guard let claims = FirebaseIDTokenClaims.read(idToken) else {
      throw refuse("'s ID token is not a JWT whose payload is a JSON object")
    }
    guard let subject = claims.sub else { throw refuse("'s ID token has no sub") }
    guard subject == userID else { throw refuse("'s ID token is for another user") }
    if let projectID {
      guard let audience = claims.aud, FirebaseProjectID.problem(with: audience) == nil else {
        throw refuse("'s ID token's aud is not a project ID")
      }
      if let mismatch = projectMismatch(claims, projectID: projectID, answer: answer) {
        throw mismatch
      }
      if let issuer = claims.iss, issuer != issuerPrefix + projectID {
        throw refuse("'s ID token's iss is not the issuer of its project (aud)")
      }
    }
    return claims
  }

  /// The issuer of ID tokens before the project ID.
  static let issuerPrefix = "https://securetoken.google.com/"

  /// The error for an ID token issued for another project than `projectID`, or `nil`
  /// when its `aud` is `projectID` (or absent). The caller has checked that `aud` is a
  /// project ID (``UserBackendKit/FirebaseProjectID``); one that is not is a malformed
  /// token, not another project.
  ///
  /// The message names both: the configured project and the token's `aud` (and the
  /// project of its `iss` when that says another, quoted and shortened, shown by its code
  /// points when it is not a project ID); and says what to fix.
  /// - Returns: `.misconfigured(setting: "projectID", reason:)`.
  static func projectMismatch(
    _ claims: FirebaseIDTokenClaims, projectID: String, answer: String
  ) -> UserBackendError? {
    guard let audience = claims.aud, audience != projectID else { return nil }
    var issued = "project \(shownProject(audience)) (aud)"
    if let issuer = claims.iss, issuer.hasPrefix(issuerPrefix) {
      let issuerProject = String(issuer.dropFirst(issuerPrefix.count))
      if issuerProject != audience { issued += ", iss \(shownProject(issuerProject))" }
    }
    return UserBackendError(
      .misconfigured(
        setting: "projectID",
        reason: "the configured project is \"\(projectID)\", but the \(answer) answer's ID "
          + "token was issued for \(issued): the API key (or the Auth emulator reached, "
          + "`baas emulator --project-id`) serves another project than the configured "
          + "project ID; set the project ID to that project, or use that project's key "
          + "(or emulator)"))
  }

  /// A project ID from a token, for a message: quoted; shortened, with its code points,
  /// when it is not a valid project ID (it is server text).
  private static func shownProject(_ text: String) -> String {
    FirebaseProjectID.problem(with: text) == nil ? "\"\(text)\"" : JSONTextCheck.shown(text)
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}

extension FirebaseSessionBuilder {
  /// A stored `photoUrl` as a URL: `nil` when absent, empty, over the client's limit or
  /// not a URL (any client may have stored any text; it is profile data, not part of the
  /// protocol): ``UserBackendKit/AnswerLimits/usablePhotoURL(_:)``.
  static func photoURL(_ text: String?) -> URL? {
    AnswerLimits.usablePhotoURL(text)
  }

  /// The user after an `accounts:update` answer: the answer's fields where it has them,
  /// else the request's changes applied to `previous`; a display name or photo URL over
  /// the client's limit is dropped (``UserBackendKit/AnswerLimits/keepingUsableProfile(_:)``). Providers come from a non-empty
  /// `providerUserInfo[]`; a password linked to an anonymous user adds `"password"` and
  /// ends `isAnonymous`.
  static func user(
    afterUpdate response: UpdateAccountResponse, request: UpdateAccountRequest, previous: User
  ) -> User {
    var user = previous
    let deleted = Set(request.deleteAttribute ?? [])
    if let email = response.email, !email.isEmpty {
      user.email = email
    } else if let email = request.email {
      user.email = email
    }
    if let name = response.displayName {
      user.displayName = name.isEmpty ? nil : name
    } else if deleted.contains("DISPLAY_NAME") {
      user.displayName = nil
    } else if let name = request.displayName {
      user.displayName = name
    }
    if let photo = response.photoUrl {
      user.photoURL = photoURL(photo)
    } else if deleted.contains("PHOTO_URL") {
      user.photoURL = nil
    } else if let photo = request.photoUrl {
      user.photoURL = photoURL(photo)
    }
    if let verified = response.emailVerified {
      user.emailVerified = verified
    } else if request.email != nil {
      user.emailVerified = nil
    }
    let providers = (response.providerUserInfo ?? []).map(\.providerId).filter { !$0.isEmpty }
    if !providers.isEmpty {
      user.providers = Array(Set(providers)).sorted()
    } else if request.password != nil, request.email != nil, previous.isAnonymous {
      user.providers = ["password"]
    }
    user.isAnonymous = user.providers == ["anonymous"]
    return AnswerLimits.keepingUsableProfile(user)
  }
}
