import Foundation

/// What to do with one named value (a query parameter, header, JSON or form field, or JWT
/// claim) when a request or response is redacted.
public struct RedactionRule: Codable, Sendable, Hashable {
  /// The action.
  public enum Kind: String, Codable, Sendable, Hashable {
    /// Replace the value with a consistent alias `<LABEL_n>`: the same value always gets
    /// the same alias, numbered by first appearance. A JWT gets an unsigned look-alike.
    case alias
    /// Replace the value with the constant `label` (e.g. `<NCMB_SIGNATURE>`).
    case constant
    /// Drop the field.
    case remove
  }

  /// The field name, matched ignoring case (``names(_:)``).
  public var name: String
  /// The action.
  public var kind: Kind
  /// The alias category (`FIREBASE_API_KEY`) or the constant text; unused for `remove`.
  public var label: String

  /// A rule.
  public init(name: String, kind: Kind, label: String = "") {
    self.name = name
    self.kind = kind
    self.label = label
  }

  /// `true` when this rule is for a field called `field`. Case is ignored for every kind of
  /// field, not only headers: redacting a `"Password"` JSON field that the rule `password`
  /// was written for costs nothing, while missing it would store a password.
  public func names(_ field: String) -> Bool {
    // ASCII case folding, byte by byte (no allocation: redaction compares every field of
    // every body with every rule).
    let (a, b) = (name.utf8, field.utf8)
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { x, y in
      x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
    }
  }

  /// `name` gets consistent aliases `<category_n>`.
  public static func alias(_ name: String, _ category: String) -> RedactionRule {
    RedactionRule(name: name, kind: .alias, label: category)
  }

  /// `name` is replaced with `text`.
  public static func constant(_ name: String, _ text: String) -> RedactionRule {
    RedactionRule(name: name, kind: .constant, label: text)
  }

  /// `name` is dropped.
  public static func remove(_ name: String) -> RedactionRule {
    RedactionRule(name: name, kind: .remove)
  }
}

/// Redaction and matching rules as data (docs/cassettes.md §5–§6). Stored in
/// the cassette (`_replay.rules`), applied when writing and to every live request before
/// matching, so recording and replay see the same normalised request.
///
/// Besides the named rules, redaction always (1) replaces any signed JWT found in a value
/// with an unsigned one that keeps the claim names, and (2) replaces any occurrence of a
/// value it has already aliased, wherever it appears.
public struct RedactionRules: Codable, Sendable, Hashable {
  /// Query parameters (URL and `queryString`).
  public var queryParameters: [RedactionRule]
  /// Request header fields (case-insensitive names). `Authorization: Bearer X` keeps its
  /// scheme and redacts `X`.
  public var requestHeaders: [RedactionRule]
  /// JSON body fields, at any depth, in requests and responses.
  public var jsonFields: [RedactionRule]
  /// `application/x-www-form-urlencoded` body fields.
  public var formFields: [RedactionRule]
  /// Claims aliased inside JWT replacements (other claims keep their values; `exp`, `iat`,
  /// `nbf`, `auth_time` shift with the cassette clock).
  public var jwtClaims: [RedactionRule]
  /// Response header fields kept in cassettes (case-insensitive); all others are dropped.
  public var responseHeaderAllowList: [String]
  /// Request header fields kept in cassettes (case-insensitive) besides `Content-Type`,
  /// the fields ``requestHeaders`` rules name (aliased, constant or removed as they say)
  /// and ``matchHeaders``; all others are dropped, so a credential in a header no rule
  /// knows (`X-Api-Token: …` in an imported HAR file) never reaches a cassette. A kept
  /// field no rule names but called like a credential (`CredentialFieldNames`) is aliased
  /// (`<SECRET_n>`): a list keeps the field, never its secret.
  public var requestHeaderAllowList: [String]
  /// Request header fields that take part in matching (after redaction), besides method,
  /// host, path, query and body.
  public var matchHeaders: [String]

  /// Rules (all empty by default).
  public init(
    queryParameters: [RedactionRule] = [], requestHeaders: [RedactionRule] = [],
    jsonFields: [RedactionRule] = [], formFields: [RedactionRule] = [],
    jwtClaims: [RedactionRule] = [], responseHeaderAllowList: [String] = [],
    requestHeaderAllowList: [String] = [], matchHeaders: [String] = []
  ) {
    self.queryParameters = queryParameters
    self.requestHeaders = requestHeaders
    self.jsonFields = jsonFields
    self.formFields = formFields
    self.jwtClaims = jwtClaims
    self.responseHeaderAllowList = responseHeaderAllowList
    self.requestHeaderAllowList = requestHeaderAllowList
    self.matchHeaders = matchHeaders
  }

  /// Decodes leniently: a missing list is empty.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    queryParameters = try c.decodeIfPresent([RedactionRule].self, forKey: .queryParameters) ?? []
    requestHeaders = try c.decodeIfPresent([RedactionRule].self, forKey: .requestHeaders) ?? []
    jsonFields = try c.decodeIfPresent([RedactionRule].self, forKey: .jsonFields) ?? []
    formFields = try c.decodeIfPresent([RedactionRule].self, forKey: .formFields) ?? []
    jwtClaims = try c.decodeIfPresent([RedactionRule].self, forKey: .jwtClaims) ?? []
    responseHeaderAllowList =
      try c.decodeIfPresent([String].self, forKey: .responseHeaderAllowList) ?? []
    requestHeaderAllowList =
      try c.decodeIfPresent([String].self, forKey: .requestHeaderAllowList) ?? []
    matchHeaders = try c.decodeIfPresent([String].self, forKey: .matchHeaders) ?? []
  }

  /// Both rule sets combined (union; for a name in both, `self`'s rule wins).
  public func merged(with other: RedactionRules) -> RedactionRules {
    func union(_ a: [RedactionRule], _ b: [RedactionRule]) -> [RedactionRule] {
      a + b.filter { rule in !a.contains { $0.names(rule.name) } }
    }
    func unionNames(_ a: [String], _ b: [String]) -> [String] {
      a + b.filter { name in !a.contains { $0.lowercased() == name.lowercased() } }
    }
    return RedactionRules(
      queryParameters: union(queryParameters, other.queryParameters),
      requestHeaders: union(requestHeaders, other.requestHeaders),
      jsonFields: union(jsonFields, other.jsonFields),
      formFields: union(formFields, other.formFields),
      jwtClaims: union(jwtClaims, other.jwtClaims),
      responseHeaderAllowList: unionNames(responseHeaderAllowList, other.responseHeaderAllowList),
      requestHeaderAllowList: unionNames(requestHeaderAllowList, other.requestHeaderAllowList),
      matchHeaders: unionNames(matchHeaders, other.matchHeaders))
  }

  /// Token-bearing JSON fields shared by both services (docs/wire/firebase-auth.md,
  /// docs/wire/ncmb.md).
  static let tokenFields: [RedactionRule] = [
    .alias("password", "PASSWORD"),
    .alias("newPassword", "PASSWORD"),
    .alias("idToken", "FIREBASE_ID_TOKEN"),
    .alias("id_token", "FIREBASE_ID_TOKEN"),
    .alias("refreshToken", "REFRESH_TOKEN"),
    .alias("refresh_token", "REFRESH_TOKEN"),
    .alias("access_token", "ACCESS_TOKEN"),
    .alias("accessToken", "ACCESS_TOKEN"),
    .alias("oauthAccessToken", "ACCESS_TOKEN"),
    .alias("oauthIdToken", "FIREBASE_ID_TOKEN"),
    .alias("oauthTokenSecret", "OAUTH_SECRET"),
    .alias("pendingToken", "PENDING_TOKEN"),
    .alias("mfaPendingCredential", "PENDING_TOKEN"),
    .alias("sessionToken", "NCMB_SESSION_TOKEN"),
    .alias("oobCode", "OOB_CODE"),
    .alias("sessionInfo", "PHONE_SESSION_INFO"),
    .alias("temporaryProof", "PHONE_PROOF"),
    .alias("recaptchaToken", "RECAPTCHA_TOKEN"),
    .alias("captchaResponse", "RECAPTCHA_TOKEN"),
    .alias("playIntegrityToken", "PLAY_INTEGRITY_TOKEN"),
    .alias("iosReceipt", "IOS_RECEIPT"),
    .alias("iosSecret", "IOS_SECRET"),
    .alias("clientKey", "NCMB_CLIENT_KEY"),
  ]

  /// Firebase Authentication REST (Identity Toolkit v1, Secure Token): API key in `key=` and
  /// `x-goog-api-key`, bearer tokens, passwords and every token field; request headers
  /// kept: those, `Content-Type` and `Accept`; response headers `Content-Type`,
  /// `Location`, `Retry-After`, `ETag`; matches on `Authorization`.
  public static let firebase = RedactionRules(
    queryParameters: [
      .alias("key", "FIREBASE_API_KEY"), .alias("auth", "FIREBASE_ID_TOKEN"),
      .alias("access_token", "ACCESS_TOKEN"),
    ],
    requestHeaders: [
      .alias("Authorization", "ACCESS_TOKEN"), .alias("x-goog-api-key", "FIREBASE_API_KEY"),
      .constant("X-Firebase-AppCheck", "<APP_CHECK_TOKEN>"), .remove("Cookie"),
      .remove("User-Agent"), .remove("X-Client-Version"), .remove("X-Firebase-GMPID"),
      .remove("X-Firebase-Client"), .remove("Accept-Language"), .remove("Accept-Encoding"),
      .remove("Content-Length"), .remove("Host"), .remove("Connection"),
    ],
    // `code` is the SMS verification code of `accounts:signInWithPhoneNumber` (a string);
    // Firebase's error `code` is a number and stays.
    jsonFields: tokenFields + [.alias("code", "SMS_CODE")],
    formFields: [
      .alias("refresh_token", "REFRESH_TOKEN"), .alias("password", "PASSWORD"),
      .alias("id_token", "FIREBASE_ID_TOKEN"), .alias("access_token", "ACCESS_TOKEN"),
      .alias("code", "OAUTH_CODE"),
    ],
    jwtClaims: [
      .alias("nonce", "NONCE"), .alias("at_hash", "TOKEN_HASH"), .alias("c_hash", "TOKEN_HASH"),
    ],
    responseHeaderAllowList: ["Content-Type", "Location", "Retry-After", "ETag"],
    requestHeaderAllowList: ["Accept"],
    matchHeaders: ["Authorization"])

  /// The rules for HAR imports: the same as ``firebase``, which already aliases the SMS
  /// verification code. Kept as a name so callers that import say so.
  public static let firebaseImport = firebase

  /// NCMB REST: application key, signature (a constant; replay re-verifies it through the
  /// request verifier), session tokens in header and body, passwords (JSON and the legacy
  /// GET-login query); request headers kept: those, `Content-Type`, `Accept` and
  /// `X-NCMB-Timestamp`; response headers `Content-Type`, `Location`, `Retry-After`,
  /// `ETag`, `X-NCMB-Response-Signature`; matches on `X-NCMB-Apps-Session-Token`.
  public static let ncmb = RedactionRules(
    queryParameters: [.alias("password", "PASSWORD")],
    requestHeaders: [
      .alias("X-NCMB-Application-Key", "NCMB_APPLICATION_KEY"),
      .constant("X-NCMB-Signature", "<NCMB_SIGNATURE>"),
      .alias("X-NCMB-Apps-Session-Token", "NCMB_SESSION_TOKEN"),
      .alias("Authorization", "ACCESS_TOKEN"), .remove("Cookie"), .remove("User-Agent"),
      .remove("X-NCMB-SDK-Version"), .remove("X-NCMB-OS-Version"), .remove("Accept-Language"),
      .remove("Accept-Encoding"), .remove("Content-Length"), .remove("Host"),
      .remove("Connection"),
    ],
    jsonFields: tokenFields,
    formFields: [.alias("password", "PASSWORD")],
    jwtClaims: [.alias("nonce", "NONCE")],
    responseHeaderAllowList: [
      "Content-Type", "Location", "Retry-After", "ETag", "X-NCMB-Response-Signature",
    ],
    requestHeaderAllowList: ["Accept", "X-NCMB-Timestamp"],
    matchHeaders: ["X-NCMB-Apps-Session-Token"])

  /// Both services' rules: the default for HAR imports of unknown origin.
  public static let standard = firebase.merged(with: ncmb)
}
