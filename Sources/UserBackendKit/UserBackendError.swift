import Foundation

/// A backend's own error code, kept verbatim for diagnosis: Firebase `EMAIL_EXISTS`,
/// NCMB `E409001`, the fake's `EMAIL_EXISTS`.
///
/// An open set: an unknown code from a server is a value, never a decoding failure.
public struct BackendErrorCode: RawRepresentable, Hashable, Codable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The code as the backend sent it.
  public let rawValue: String
  /// Wraps a raw code.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps a raw code.
  public init(stringLiteral value: String) { self.rawValue = value }
  /// The raw code.
  public var description: String { rawValue }
}

/// The one error type every ``UserBackend`` throws.
///
/// ``code`` is portable (the same on every backend); ``backendCode`` keeps the backend's
/// raw code and ``message`` its human-readable detail. Neither ever contains a secret
/// (password, token, API key, client key).
public struct UserBackendError: Error, Sendable, Hashable, CustomStringConvertible,
  LocalizedError
{
  /// The portable error cases.
  public enum Code: Sendable, Hashable {
    /// Plainly bad input, detected before any network call; `field` names it
    /// (`"email"`, `"password"`, `"username"`, `"phoneNumber"`).
    case invalidInput(field: String, reason: String)
    /// The email or user name is already registered.
    case accountAlreadyExists
    /// Unknown account or wrong password (never told apart).
    case invalidCredentials
    /// The password breaks the backend's password rules. `minimumLength` is the shortest
    /// length the backend enforces: the one it stated, else its documented floor. When the
    /// server listed its rules (a maximum length, character classes, …) they are in
    /// ``UserBackendError/passwordRequirements``; report those, not a guess.
    case weakPassword(minimumLength: Int)
    /// The email address is malformed.
    case invalidEmail
    /// The account exists but is disabled.
    case userDisabled
    /// The operation needs a signed-in user and there is none.
    case notSignedIn
    /// The server definitively rejected the session; it has been cleared locally.
    case sessionExpired
    /// A sensitive change (password, email, account deletion) needs a recent sign-in:
    /// the session is older than the backend allows (Firebase
    /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`). Call ``UserBackend/reauthenticate(_:)`` and retry.
    /// The session is kept.
    case requiresRecentLogin
    /// ``UserBackend/reauthenticate(_:)`` was given the credential of another account
    /// (Firebase `USER_MISMATCH`). The signed-in user is unchanged.
    case userMismatch
    /// The signed-in user may not read or change this data: another user's document
    /// (Firestore `PERMISSION_DENIED`, NCMB `E403001`).
    case permissionDenied
    /// Too many requests; retry after the given number of seconds when known. Any value
    /// is safe to describe: one that is not finite or is negative is shown as unknown,
    /// one above one day (86 400 s) as that maximum.
    case rateLimited(retryAfter: TimeInterval?)
    /// The backend does not offer this capability.
    case unsupported(capability: Capability)
    /// The request did not reach the server or no answer came back (offline, timeout,
    /// cancelled). The stored session is kept.
    case network(reason: String)
    /// The server answered with an error the portable cases do not cover.
    case server(status: Int, code: String?, message: String?)
    /// The server's answer could not be understood (not JSON, truncated, wrong shape).
    case malformedResponse(reason: String)
    /// The client is configured wrongly: an API key the server rejects, a client key
    /// whose signatures the server rejects, an unusable base URL. `setting` names it.
    case misconfigured(setting: String, reason: String)

    /// The portable name used in `--json` output and in contract files:
    /// `"invalidInput"`, `"accountAlreadyExists"`, ….
    public var name: String {
      switch self {
      case .invalidInput: "invalidInput"
      case .accountAlreadyExists: "accountAlreadyExists"
      case .invalidCredentials: "invalidCredentials"
      case .weakPassword: "weakPassword"
      case .invalidEmail: "invalidEmail"
      case .userDisabled: "userDisabled"
      case .notSignedIn: "notSignedIn"
      case .sessionExpired: "sessionExpired"
      case .requiresRecentLogin: "requiresRecentLogin"
      case .userMismatch: "userMismatch"
      case .permissionDenied: "permissionDenied"
      case .rateLimited: "rateLimited"
      case .unsupported: "unsupported"
      case .network: "network"
      case .server: "server"
      case .malformedResponse: "malformedResponse"
      case .misconfigured: "misconfigured"
      }
    }
  }

  /// The portable case.
  public var code: Code
  /// The backend's raw code, when it sent one.
  public var backendCode: BackendErrorCode?
  /// Human-readable detail (the backend's message when there is one). Never a secret.
  public var message: String
  /// With `.weakPassword`: the password rules the server listed, exactly as far as it
  /// stated them; `nil` when it listed none (and for every other case).
  public var passwordRequirements: PasswordRequirements?

  /// An error with a portable case, the backend's raw code and a message.
  /// An empty `message` is replaced by a default text for the case.
  ///
  /// - Parameters:
  ///   - code: the portable case.
  ///   - backendCode: the service's own code (`EMAIL_EXISTS`, `E401002`), if any.
  ///   - message: the text shown to people; never a secret.
  ///   - passwordRequirements: the rules a `.weakPassword` server answer listed.
  public init(
    _ code: Code, backendCode: BackendErrorCode? = nil, message: String = "",
    passwordRequirements: PasswordRequirements? = nil
  ) {
    self.code = code
    self.backendCode = backendCode
    self.passwordRequirements = passwordRequirements
    self.message =
      message.isEmpty
      ? passwordRequirements.map(\.summary).flatMap { $0.isEmpty ? nil : $0 }
        ?? Self.defaultMessage(for: code)
      : message
  }

  /// `code.name`, the backend code in brackets, and the message.
  public var description: String {
    var text = code.name
    if let backendCode { text += " [\(backendCode.rawValue)]" }
    return text + ": " + message
  }

  /// Same as ``description``.
  public var errorDescription: String? { description }

  static func defaultMessage(for code: Code) -> String {
    switch code {
    case .invalidInput(let field, let reason): "\(field): \(reason)"
    case .accountAlreadyExists: "An account with this identifier already exists."
    case .invalidCredentials: "The identifier or the password is wrong."
    case .weakPassword(let minimum): "The password must be at least \(minimum) characters."
    case .invalidEmail: "The email address is malformed."
    case .userDisabled: "The account is disabled."
    case .notSignedIn: "Nobody is signed in."
    case .sessionExpired: "The session was rejected by the server; sign in again."
    case .requiresRecentLogin: "This change needs a recent sign-in; reauthenticate and retry."
    case .userMismatch: "The credential belongs to another account than the signed-in user."
    case .permissionDenied: "The signed-in user may not access this data."
    case .rateLimited(let retryAfter):
      retryAfter.flatMap(RetryAfter.wholeSeconds).map { "Too many requests; retry after \($0) s." }
        ?? "Too many requests."
    case .unsupported(let capability): "This backend does not support \(capability)."
    case .network(let reason): "Network error: \(reason)"
    case .server(let status, let code, let message):
      "Server error \(status)\(code.map { " \($0)" } ?? "")\(message.map { ": \($0)" } ?? "")"
    case .malformedResponse(let reason): "Malformed response: \(reason)"
    case .misconfigured(let setting, let reason): "\(setting): \(reason)"
    }
  }
}
