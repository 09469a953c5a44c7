import Foundation
import UserBackendKit

/// The claims of a verified Firebase ID token, typed.
///
/// Built by ``FirebaseTokenVerifier/verify(_:)`` only after every check passed.
public struct FirebaseTokenClaims: Sendable, Hashable {
  /// The Firebase user ID (`sub`; `user_id`, when present, is equal), 1…128 characters.
  public let userID: String
  /// `email`, when the account has one.
  public let email: String?
  /// `email_verified`; `false` when absent.
  public let emailVerified: Bool
  /// `phone_number` (E.164), when the account has one.
  public let phoneNumber: String?
  /// `name`, when set.
  public let name: String?
  /// `picture`, when set.
  public let picture: String?
  /// `firebase.sign_in_provider`: `password`, `anonymous`, `phone`, `google.com`,
  /// `custom`, …; `nil` when absent.
  public let signInProvider: String?
  /// `firebase.tenant`, for a token of a multi-tenant project.
  public let tenant: String?
  /// `firebase.identities`: provider -> identifiers (`"email": ["ada@example.com"]`).
  public let identities: [String: [String]]
  /// `auth_time`: when the user signed in (a refresh keeps it).
  public let authTime: Date
  /// `iat`: when this token was issued.
  public let issuedAt: Date
  /// `exp`: when this token stops being valid.
  public let expiresAt: Date
  /// `iss`: `https://securetoken.google.com/<projectID>`.
  public let issuer: String
  /// `aud`: the project ID.
  public let audience: String
  /// Every claim not named above and not reserved by JWT/OIDC (`nbf`, `jti`, `nonce`,
  /// `acr`, `amr`, `azp`, …): the developer's custom claims.
  public let customClaims: [String: ClaimValue]

  /// Claim names that are never custom claims.
  static let reserved: Set<String> = [
    "iss", "aud", "sub", "iat", "exp", "auth_time", "user_id", "email", "email_verified",
    "phone_number", "name", "picture", "firebase", "provider_id", "nbf", "jti", "nonce", "acr",
    "amr", "at_hash", "azp", "cnf", "c_hash",
  ]

  /// Reads the typed claims from a claims object whose checks passed.
  init(
    claims: [String: DocumentValue], userID: String, issuedAt: Date, expiresAt: Date,
    authTime: Date
  ) {
    func string(_ value: DocumentValue?) -> String? { ParsedToken.string(value) }
    func members(_ value: DocumentValue?) -> [String: DocumentValue] {
      if case .map(let members) = value { return members }
      return [:]
    }
    self.userID = userID
    self.email = string(claims["email"])
    self.emailVerified = claims["email_verified"] == .bool(true)
    self.phoneNumber = string(claims["phone_number"])
    self.name = string(claims["name"])
    self.picture = string(claims["picture"])
    let firebase = members(claims["firebase"])
    self.signInProvider = string(firebase["sign_in_provider"])
    self.tenant = string(firebase["tenant"])
    var identities: [String: [String]] = [:]
    for (provider, values) in members(firebase["identities"]) {
      guard case .array(let values) = values else {
        identities[provider] = []
        continue
      }
      identities[provider] = values.compactMap { string($0) }
    }
    self.identities = identities
    self.authTime = authTime
    self.issuedAt = issuedAt
    self.expiresAt = expiresAt
    self.issuer = string(claims["iss"]) ?? ""
    self.audience = string(claims["aud"]) ?? ""
    var custom: [String: ClaimValue] = [:]
    for (name, value) in claims where !Self.reserved.contains(name) {
      custom[name] = ClaimValue(document: value)
    }
    self.customClaims = custom
  }

  /// The claims as a JSON object (sorted keys), as `baas token verify --json` prints them:
  /// `uid`, `email`, `emailVerified`, `phoneNumber`, `name`, `signInProvider`, `tenant`,
  /// `identities`, `authTime`/`issuedAt`/`expiresAt` (seconds since 1970), `issuer`,
  /// `audience`, `customClaims`; absent optional claims are left out.
  public var jsonObject: [String: Any] {
    var object: [String: Any] = [
      "uid": userID, "emailVerified": emailVerified, "identities": identities,
      "authTime": Int(authTime.timeIntervalSince1970),
      "issuedAt": Int(issuedAt.timeIntervalSince1970),
      "expiresAt": Int(expiresAt.timeIntervalSince1970), "issuer": issuer, "audience": audience,
      "customClaims": customClaims.mapValues(\.jsonObject),
    ]
    object["email"] = email
    object["phoneNumber"] = phoneNumber
    object["name"] = name
    object["signInProvider"] = signInProvider
    object["tenant"] = tenant
    return object
  }
}
