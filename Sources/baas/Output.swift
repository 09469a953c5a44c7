import Foundation
import UserBackendKit
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exit statuses: 0 success, 1 the operation failed, 2 usage or configuration.
enum ExitStatus: Int32 {
  case success = 0
  case failure = 1
  case usage = 2
}

/// Unbuffered writes to standard output and standard error (so a parent process reading a
/// pipe sees each line at once).
enum Console {
  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// `true` when standard error is a terminal (progress goes there).
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
  /// `true` when standard input is a terminal (a password prompt is possible).
  static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}

/// The `--json` shapes: `{"user":{…}}`, `{"user":null}` and `{"error":{…}}`.
enum JSONOutput {
  /// `{"user":{…}}` or `{"user":null}`; the user as ``UserFields`` encodes it.
  struct UserObject: Encodable {
    var user: User?

    private enum Keys: String, CodingKey { case user }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(user.map(UserFields.init), forKey: .user)
    }
  }

  /// The user object every command prints: `id`, `email`, `username`, `phoneNumber`,
  /// `displayName`, `photoURL` (`null` when absent), `isAnonymous`, `providers`,
  /// `emailVerified` (`null` when the backend did not say), `createdAt` and
  /// `lastSignInAt` (``Timestamp/string(_:)``, `null` when unknown).
  struct UserFields: Encodable {
    var user: User

    private enum UserKeys: String, CodingKey {
      case id, email, username, phoneNumber, displayName, photoURL, isAnonymous, providers
      case emailVerified, createdAt, lastSignInAt
    }

    func encode(to encoder: any Encoder) throws {
      var nested = encoder.container(keyedBy: UserKeys.self)
      try nested.encode(user.id, forKey: .id)
      try nested.encode(user.email, forKey: .email)
      try nested.encode(user.username, forKey: .username)
      try nested.encode(user.phoneNumber, forKey: .phoneNumber)
      try nested.encode(user.displayName, forKey: .displayName)
      try nested.encode(user.photoURL?.absoluteString, forKey: .photoURL)
      try nested.encode(user.isAnonymous, forKey: .isAnonymous)
      try nested.encode(user.providers, forKey: .providers)
      try nested.encode(user.emailVerified, forKey: .emailVerified)
      try nested.encode(user.createdAt.map(Timestamp.string), forKey: .createdAt)
      try nested.encode(user.lastSignInAt.map(Timestamp.string), forKey: .lastSignInAt)
    }
  }

  /// The error object: `code` (portable name), `backendCode` (or `null`), `message`.
  struct ErrorObject: Encodable {
    var error: UserBackendError

    private enum Keys: String, CodingKey { case error }
    private enum ErrorKeys: String, CodingKey { case code, backendCode, message }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
      try nested.encode(error.code.name, forKey: .code)
      try nested.encode(error.backendCode?.rawValue, forKey: .backendCode)
      try nested.encode(error.message, forKey: .message)
    }
  }

  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  static func user(_ user: User?) -> String { encode(UserObject(user: user)) }
  /// The user object alone (``UserFields``), to embed in a larger object.
  static func userFields(_ user: User) -> String { encode(UserFields(user: user)) }
  static func error(_ error: UserBackendError) -> String { encode(ErrorObject(error: error)) }
}

/// Human-readable lines.
enum HumanOutput {
  /// `alice@example.com (id 1a2b…, providers: password)`, made terminal-safe
  /// (``TerminalText/safe(_:keepingNewlines:)``): every field comes from the server.
  static func describe(_ user: User) -> String {
    TerminalText.safe(unescapedDescription(user))
  }

  private static func unescapedDescription(_ user: User) -> String {
    let name =
      user.email ?? user.username ?? user.phoneNumber
      ?? (user.isAnonymous ? "anonymous user" : user.id)
    var details = ["id \(user.id)"]
    if let username = user.username, user.email != nil { details.append("username \(username)") }
    if let phone = user.phoneNumber, name != phone { details.append("phone \(phone)") }
    details.append(
      "providers: " + (user.providers.isEmpty ? "none" : user.providers.joined(separator: ", ")))
    return "\(name) (\(details.joined(separator: "; ")))"
  }

  /// The stderr lines for a failed operation: the portable code, the backend's code, the
  /// message and, when one applies, a hint. Both lines may quote the server (a hint repeats
  /// the password rules it listed), so both are made terminal-safe
  /// (``TerminalText/safe(_:keepingNewlines:)``).
  static func errorLines(_ error: UserBackendError, backend: String?, hint withHint: Bool = true)
    -> [String]
  {
    var lines = ["baas: error: \(TerminalText.safe(error.description))"]
    if withHint, let hint = hint(for: error, backend: backend) {
      lines.append("hint: \(TerminalText.safe(hint))")
    }
    return lines
  }

  static func hint(for error: UserBackendError, backend: String?) -> String? {
    switch error.code {
    case .misconfigured(let setting, _):
      let lowered = setting.lowercased()
      if lowered.contains("apikey") || lowered.contains("api_key") || lowered.contains("api key") {
        return firebaseProjectHint(error)
      }
      if lowered.contains("projectid") || lowered.contains("project_id") {
        return "check FIREBASE_PROJECT_ID (or firebase.projectID in the config file)"
      }
      if lowered.contains("client") || lowered.contains("signature") {
        return "wrong client key? check NCMB_CLIENT_KEY and NCMB_APPLICATION_KEY"
      }
      if lowered.contains("application") {
        return "wrong application key? check NCMB_APPLICATION_KEY"
      }
      return "check the setting named above (environment variable or config file)"
    case .notSignedIn:
      return "sign in first: baas signin --email E (or --username U)"
    case .requiresRecentLogin:
      return "this change needs a recent sign-in: run baas account reauth --email E "
        + "(or --username U), then retry"
    case .userMismatch:
      return "the credential is another account's: reauthenticate as the signed-in user "
        + "(baas whoami shows it)"
    case .permissionDenied:
      return "a user reaches only their own document: leave out --user, or sign in as "
        + "that user"
    case .sessionExpired:
      return "the server no longer accepts the session; sign in again"
    case .accountAlreadyExists:
      return "the account exists; use baas signin"
    case .invalidCredentials:
      if let code = error.backendCode?.rawValue.uppercased(),
        code.contains("CODE") || code.contains("VERIFICATION") || code.contains("SESSION")
      {
        return "check the SMS code, or start again with baas phone start"
      }
      return "check the identifier and the password (unknown accounts look the same)"
    case .weakPassword(let minimum):
      if let requirements = error.passwordRequirements, !requirements.isEmpty {
        return "choose a password that meets every rule: \(requirements.summary)"
      }
      return "choose a password of at least \(minimum) characters"
    case .invalidInput(let field, _) where field == "appVerification":
      return "pass the app-verification proof with --app-verification KIND:VALUE or "
        + "BAAS_APP_VERIFICATION (see baas phone start --help)"
    case .network:
      if backend == "fake" { return nil }
      return "is the server reachable? for the local emulator run `baas emulator` and set "
        + "FIREBASE_AUTH_EMULATOR_HOST or NCMB_BASE_URL"
    case .unsupported(let capability)
    where ["OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED"].contains(
      error.backendCode?.rawValue ?? ""):
      return "the project has \(capability) switched off: enable the sign-in provider in the "
        + "Firebase console (Authentication > Sign-in method)"
    case .unsupported(let capability) where backend == BackendKind.fake.rawValue:
      return "the fake backend does not offer \(capability)"
    case .unsupported(let capability):
      return "the \(backend ?? "selected") backend does not offer \(capability); "
        + "try --backend fake"
    case .rateLimited(let retryAfter):
      return retryAfter.flatMap(RetryAfter.wholeSeconds).map { "wait \($0) s and retry" }
        ?? "wait a moment and retry"
    default:
      return nil
    }
  }
}

/// The hint for a Firebase `misconfigured(apiKey)` error: "wrong API key?" only when the
/// server did not accept the key itself; otherwise what to fix in the project or in the
/// key's restrictions.
func firebaseProjectHint(_ error: UserBackendError) -> String {
  let code = error.backendCode?.rawValue ?? ""
  guard case .misconfigured(_, let reason) = error.code else { return "" }
  if reason.contains("wrong API key") {
    return "wrong API key? check FIREBASE_API_KEY (or firebase.apiKey in the config file)"
  }
  switch code {
  case "CONFIGURATION_NOT_FOUND":
    return "set up Authentication for the project in the Firebase console; "
      + "FIREBASE_API_KEY selects the project"
  case "BILLING_NOT_ENABLED":
    return "link a billing account to the project in the Firebase console"
  case "PROJECT_NUMBER_MISMATCH":
    return "the session was made with another project's key: restore FIREBASE_API_KEY or "
      + "sign in again"
  case "SERVICE_DISABLED", "accessNotConfigured":
    return "enable the Identity Toolkit API for the project in the Google Cloud console"
  default:
    if reason.contains("expired") {
      return "renew the key, or set FIREBASE_API_KEY to a current one"
    }
    return "the key is valid; change its restrictions in the Google Cloud console "
      + "(APIs & Services > Credentials) or use another key in FIREBASE_API_KEY"
  }
}

/// Turns any error of a command into a ``UserBackendKit/UserBackendError`` for output:
/// configuration and local state problems become `misconfigured`
/// (``localProblem(_:backend:home:)``); an error of no known kind is `server` with status 0.
func portableError(_ error: any Error) -> UserBackendError {
  if let local = localProblem(error, backend: nil, home: nil) { return local.userBackendError }
  switch error {
  case let error as UserBackendError: return error
  default:
    return UserBackendError(
      .server(status: 0, code: nil, message: nil),
      message: "Unexpected error: \(String(describing: error))")
  }
}

/// `error` as a configuration problem found before any server was contacted, or `nil`: a
/// ``UserBackends/BackendConfigurationError``, a session-file or other state-directory file
/// error, and the fake backend's database errors (its database is a file in `home`). All
/// name `BAAS_HOME` and the file.
func localProblem(_ error: any Error, backend: String?, home: String?)
  -> BackendConfigurationError?
{
  if let local = BackendConfigurationError.localState(error) { return local }
  guard backend == BackendKind.fake.rawValue, let error = error as? UserBackendError,
    error.backendCode == "DATABASE_ERROR"
  else { return nil }
  var problem = "database error"
  if case .server(_, _, let message?) = error.code { problem = message }
  let path = home.map { URL(fileURLWithPath: $0).appendingPathComponent("fake.sqlite").path }
  return .stateFile(
    "use", path: "the fake's database " + (path ?? "fake.sqlite in the state directory"),
    problem: problem)
}
