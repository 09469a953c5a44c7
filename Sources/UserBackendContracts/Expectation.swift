import Foundation
import UserBackendKit

/// What a step must produce (the step's `"expect"` object, exactly one key). A step
/// without `expect` must simply succeed.
///
/// - `{"user": {shape}}`: a user (or a session's user) matching ``UserShape``.
/// - `{"nil": true}`: no user (`currentUser` returns `nil`).
/// - `{"error": "name", "field": ..., "minimumLength": ...}`: a portable error
///   (``ErrorExpectation``).
/// - `{"token": {...}}`: a non-empty bearer token (``TokenExpectation``).
/// - `{"outcomes": {"success": 1, "accountAlreadyExists": 19}}`: counts for `concurrent`;
///   with `"refreshRequests": N`, also the number of token refresh requests the environment
///   saw on the wire during the step (checked where the environment can count them).
/// - `{"events": [...]}`: the auth state events for `expectEvents`.
/// - `{"document": {...}}`: a document, or none (``DocumentExpectation``).
/// - `{"server": "refused"}` / `{"server": "served"}`: for `rawGetDocument`, how the server
///   itself answered the environment's own read (``ServerAnswer/Kind``).
/// - `{"success": true}`: succeeds, same as omitting `expect`.
public enum Expectation: Sendable, Hashable, Codable {
  /// The operation succeeds; its value is not checked.
  case success
  /// A user matching the shape.
  case user(UserShape)
  /// No user.
  case noUser
  /// A portable error.
  case error(ErrorExpectation)
  /// A bearer token.
  case token(TokenExpectation)
  /// Outcome counts of a `concurrent` step: `"success"` (a document creation counts as
  /// `"created"` or `"existed"` instead) or a portable error name -> count;
  /// `refreshRequests`: how many token refresh requests the step must send (when the
  /// environment counts them, ``ContractEnvironment/tokenRefreshRequests()``).
  case outcomes([String: Int], refreshRequests: Int? = nil)
  /// The first events of an auth state subscription, in order.
  case events([EventExpectation])
  /// A document (or its absence), and for creations whether the step created it.
  case document(DocumentExpectation)
  /// How the server answered a `rawGetDocument` step: ``ServerAnswer/Kind/refused`` (the
  /// server's own rule refused the read, whatever the adapter would have done) or
  /// ``ServerAnswer/Kind/served``.
  case server(ServerAnswer.Kind)

  private enum Keys: String, CodingKey, CaseIterable {
    case success, user, token, outcomes, events, document, server, error, field, minimumLength
    case refreshRequests
    case isNil = "nil"
  }

  /// Decodes the one-key form.
  /// - Throws: a format error when no or several kinds are given, or a value is bad.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: Keys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: Keys.self)
    let kinds: [Keys] = [
      .success, .user, .isNil, .error, .token, .outcomes, .events, .document, .server,
    ]
    let present = kinds.filter { container.contains($0) }
    guard present.count == 1, let kind = present.first else {
      throw ContractFormatError.invalid(
        decoder, nil,
        "give exactly one of " + kinds.map(\.rawValue).joined(separator: ", ")
          + (present.isEmpty
            ? "" : " (found " + present.map(\.rawValue).joined(separator: ", ") + ")"))
    }
    if kind != .error, container.contains(.field) || container.contains(.minimumLength) {
      throw ContractFormatError.invalid(decoder, nil, "field and minimumLength go with error")
    }
    if kind != .outcomes, container.contains(.refreshRequests) {
      throw ContractFormatError.invalid(decoder, nil, "refreshRequests goes with outcomes")
    }
    switch kind {
    case .success, .isNil:
      guard try container.decode(Bool.self, forKey: kind) else {
        throw ContractFormatError.invalid(decoder, kind.rawValue, "only true is meaningful")
      }
      self = kind == .success ? .success : .noUser
    case .user: self = .user(try container.decode(UserShape.self, forKey: .user))
    case .token: self = .token(try container.decode(TokenExpectation.self, forKey: .token))
    case .events: self = .events(try container.decode([EventExpectation].self, forKey: .events))
    case .document:
      self = .document(try container.decode(DocumentExpectation.self, forKey: .document))
    case .server:
      let kind = try container.decode(String.self, forKey: .server)
      guard let answer = ServerAnswer.Kind(rawValue: kind), answer != .other else {
        throw ContractFormatError.invalid(decoder, "server", "give \"refused\" or \"served\"")
      }
      self = .server(answer)
    case .outcomes:
      let counts = try container.decode([String: Int].self, forKey: .outcomes)
      for (name, count) in counts {
        guard
          PortableErrorName.successOutcomes.contains(name) || PortableErrorName.all.contains(name)
        else {
          throw ContractFormatError.invalid(
            decoder, "outcomes",
            "unknown outcome \"\(name)\" (use success, created, existed or an error name)")
        }
        guard count >= 0 else {
          throw ContractFormatError.invalid(decoder, "outcomes", "counts must be >= 0")
        }
      }
      let refreshes = try container.decodeIfPresent(Int.self, forKey: .refreshRequests)
      if let refreshes, refreshes < 0 {
        throw ContractFormatError.invalid(decoder, "refreshRequests", "must be >= 0")
      }
      self = .outcomes(counts, refreshRequests: refreshes)
    default:
      self = .error(try ErrorExpectation(from: decoder))
    }
  }

  /// Encodes the one-key form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    switch self {
    case .success: try container.encode(true, forKey: .success)
    case .noUser: try container.encode(true, forKey: .isNil)
    case .user(let shape): try container.encode(shape, forKey: .user)
    case .token(let token): try container.encode(token, forKey: .token)
    case .events(let events): try container.encode(events, forKey: .events)
    case .document(let document): try container.encode(document, forKey: .document)
    case .server(let kind): try container.encode(kind.rawValue, forKey: .server)
    case .outcomes(let counts, let refreshes):
      try container.encode(counts, forKey: .outcomes)
      try container.encodeIfPresent(refreshes, forKey: .refreshRequests)
    case .error(let error): try error.encode(to: encoder)
    }
  }
}

/// The portable error names of `UserBackendError.Code.name`.
public enum PortableErrorName {
  /// Every name a contract may expect.
  public static let all: [String] = [
    "invalidInput", "accountAlreadyExists", "invalidCredentials", "weakPassword",
    "invalidEmail", "userDisabled", "notSignedIn", "sessionExpired", "requiresRecentLogin",
    "userMismatch", "permissionDenied", "rateLimited", "unsupported", "network", "server",
    "malformedResponse", "misconfigured",
  ]
  /// The outcome names of a `concurrent` operation that succeeded: `success`, or for a
  /// document creation (`createDocument`, `ensureDocument`) `created` / `existed`.
  public static let successOutcomes: [String] = ["success", "created", "existed"]
}

/// An expected portable error: `{"error": "invalidInput", "field": "email"}`,
/// `{"error": "weakPassword", "minimumLength": 6}`.
public struct ErrorExpectation: Sendable, Hashable, Codable {
  /// The portable name (`UserBackendError.Code.name`).
  public var error: String
  /// For `invalidInput`: the field that must be named, when given.
  public var field: String?
  /// For `weakPassword`: the minimum length that must be reported, when given.
  public var minimumLength: Int?

  /// An expectation value.
  public init(error: String, field: String? = nil, minimumLength: Int? = nil) {
    self.error = error
    self.field = field
    self.minimumLength = minimumLength
  }

  /// Decodes and checks the name against ``PortableErrorName/all``.
  /// - Throws: a format error for an unknown name or a detail that does not fit it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    error = try container.decode(String.self, forKey: .error)
    field = try container.decodeIfPresent(String.self, forKey: .field)
    minimumLength = try container.decodeIfPresent(Int.self, forKey: .minimumLength)
    guard PortableErrorName.all.contains(error) else {
      throw ContractFormatError.invalid(
        decoder, "error",
        "unknown error \"\(error)\" (known: \(PortableErrorName.all.joined(separator: ", ")))")
    }
    if field != nil, error != "invalidInput" {
      throw ContractFormatError.invalid(decoder, "field", "only for invalidInput")
    }
    if minimumLength != nil, error != "weakPassword" {
      throw ContractFormatError.invalid(decoder, "minimumLength", "only for weakPassword")
    }
  }
}

/// The fields of a user that must match; absent fields are not checked.
/// Strings may contain `{{variables}}`.
public struct UserShape: Sendable, Hashable, Codable {
  /// The email, compared exactly with the user's (after `{{variable}}` substitution): the
  /// contract states the canonical form literally, so a backend that answers another
  /// spelling (`" ALICE@EXAMPLE.COM"`) fails; the code under test never judges itself.
  public var email: String?
  /// The user name.
  public var username: String?
  /// The E.164 phone number.
  public var phoneNumber: String?
  /// The display name; `""` means none (as `updateProfile` removes it).
  public var displayName: String?
  /// The provider IDs, compared as a sorted list.
  public var providers: [String]?
  /// Whether the user is anonymous.
  public var isAnonymous: Bool?
  /// Whether the email address is verified (a backend that does not say fails).
  public var emailVerified: Bool?
  /// The photo URL, compared exactly; `""` means none (as `updateProfile` removes it).
  public var photoURL: String?
  /// `true`: the backend tells when the account was created; `false`: it does not.
  public var createdAt: Bool?
  /// `true`: the backend tells when the user last signed in; `false`: it does not.
  public var lastSignInAt: Bool?
  /// Whether the session created the account (only for operations returning a session).
  public var isNewUser: Bool?
  /// The label of an earlier step whose user must have the same ID.
  public var sameUserAs: String?
  /// The label of an earlier step whose user must have a different ID.
  public var differentUserFrom: String?

  /// A shape value.
  public init(
    email: String? = nil, username: String? = nil, phoneNumber: String? = nil,
    displayName: String? = nil, providers: [String]? = nil, isAnonymous: Bool? = nil,
    isNewUser: Bool? = nil, sameUserAs: String? = nil, differentUserFrom: String? = nil,
    emailVerified: Bool? = nil, photoURL: String? = nil, createdAt: Bool? = nil,
    lastSignInAt: Bool? = nil
  ) {
    self.emailVerified = emailVerified
    self.photoURL = photoURL
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
    self.email = email
    self.username = username
    self.phoneNumber = phoneNumber
    self.displayName = displayName
    self.providers = providers
    self.isAnonymous = isAnonymous
    self.isNewUser = isNewUser
    self.sameUserAs = sameUserAs
    self.differentUserFrom = differentUserFrom
  }

  /// Decodes; unknown keys are rejected so that a typo cannot weaken a contract.
  /// - Throws: a format error naming the unknown key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(
      decoder,
      allowed: [
        "email", "username", "phoneNumber", "displayName", "providers", "isAnonymous",
        "isNewUser", "sameUserAs", "differentUserFrom", "emailVerified", "photoURL",
        "createdAt", "lastSignInAt",
      ])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    email = try container.decodeIfPresent(String.self, forKey: .email)
    username = try container.decodeIfPresent(String.self, forKey: .username)
    phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
    displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
    providers = try container.decodeIfPresent([String].self, forKey: .providers)
    isAnonymous = try container.decodeIfPresent(Bool.self, forKey: .isAnonymous)
    isNewUser = try container.decodeIfPresent(Bool.self, forKey: .isNewUser)
    sameUserAs = try container.decodeIfPresent(String.self, forKey: .sameUserAs)
    differentUserFrom = try container.decodeIfPresent(String.self, forKey: .differentUserFrom)
    emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
    photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
    createdAt = try container.decodeIfPresent(Bool.self, forKey: .createdAt)
    lastSignInAt = try container.decodeIfPresent(Bool.self, forKey: .lastSignInAt)
  }
}

/// An expected bearer token (always non-empty). Tokens are compared, never printed.
///
/// `sameAs` / `differentFrom` naming a `concurrent` step compare with every token that
/// step produced (so all of them must be equal for `sameAs`). `sameUserAs` checks the
/// token's own subject (the JWT `sub`, or what ``ContractEnvironment/tokenSubject(_:)``
/// answers for an opaque token) as well as the signed-in user. `refreshRequests` counts the
/// token refresh requests the step sent on the wire, where the environment sees them
/// (``ContractEnvironment/tokenRefreshRequests()``); `notOlderThan` compares the JWT `iat`
/// claims: a forced refresh must reach the server, but the server may answer the same bytes
/// (ID tokens carry times in whole seconds and no unique claim, so two tokens minted for
/// one user in one second are equal).
public struct TokenExpectation: Sendable, Hashable, Codable {
  /// The label of an earlier step (`idToken`, or `concurrent` for its first success)
  /// whose token must differ from this one.
  public var differentFrom: String?
  /// The label of an earlier step (`idToken` or `concurrent`) whose token must equal
  /// this one.
  public var sameAs: String?
  /// The label of an earlier step whose user must still be the signed-in user.
  public var sameUserAs: String?
  /// How many token refresh requests the step must send on the wire; checked where the
  /// environment counts them (emulators, replay, live), not judged elsewhere.
  public var refreshRequests: Int?
  /// The label of an earlier `idToken` or `concurrent` step: this token's `iat` (a JWT's
  /// issue time, whole seconds) must not be earlier than any of that step's tokens'. A
  /// token without `iat` fails it.
  public var notOlderThan: String?

  /// An expectation value.
  public init(
    differentFrom: String? = nil, sameAs: String? = nil, sameUserAs: String? = nil,
    refreshRequests: Int? = nil, notOlderThan: String? = nil
  ) {
    self.differentFrom = differentFrom
    self.sameAs = sameAs
    self.sameUserAs = sameUserAs
    self.refreshRequests = refreshRequests
    self.notOlderThan = notOlderThan
  }

  /// Decodes; unknown keys are rejected.
  /// - Throws: a format error naming the unknown key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(
      decoder,
      allowed: ["differentFrom", "sameAs", "sameUserAs", "refreshRequests", "notOlderThan"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    differentFrom = try container.decodeIfPresent(String.self, forKey: .differentFrom)
    sameAs = try container.decodeIfPresent(String.self, forKey: .sameAs)
    sameUserAs = try container.decodeIfPresent(String.self, forKey: .sameUserAs)
    refreshRequests = try container.decodeIfPresent(Int.self, forKey: .refreshRequests)
    notOlderThan = try container.decodeIfPresent(String.self, forKey: .notOlderThan)
    if let refreshRequests, refreshRequests < 0 {
      throw ContractFormatError.invalid(decoder, "refreshRequests", "must be >= 0")
    }
  }
}

/// One expected auth state event: `{"event": "signedIn", "user": {shape}}` or
/// `{"event": "signedOut", "nil": true}`.
public struct EventExpectation: Sendable, Hashable, Codable {
  /// The event kind.
  public var event: AuthStateChange.Event
  /// The user the event must carry, when given.
  public var user: UserShape?
  /// `true`: the event must carry no user.
  public var isNil: Bool

  private enum CodingKeys: String, CodingKey {
    case event, user
    case isNil = "nil"
  }

  /// An expectation value.
  public init(event: AuthStateChange.Event, user: UserShape? = nil, isNil: Bool = false) {
    self.event = event
    self.user = user
    self.isNil = isNil
  }

  /// Decodes; `user` and `nil` exclude each other.
  /// - Throws: a format error for an unknown event or both `user` and `nil`.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["event", "user", "nil"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .event)
    guard let event = AuthStateChange.Event(rawValue: name) else {
      throw ContractFormatError.invalid(decoder, "event", "unknown event \"\(name)\"")
    }
    self.event = event
    user = try container.decodeIfPresent(UserShape.self, forKey: .user)
    isNil = try container.decodeIfPresent(Bool.self, forKey: .isNil) ?? false
    if isNil && user != nil {
      throw ContractFormatError.invalid(decoder, nil, "give user or nil, not both")
    }
  }

  /// Encodes; `nil` only when true.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(event, forKey: .event)
    try container.encodeIfPresent(user, forKey: .user)
    if isNil { try container.encode(true, forKey: .isNil) }
  }
}
