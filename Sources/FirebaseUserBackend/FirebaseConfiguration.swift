import BackendHTTP
import Foundation
import UserBackendKit

/// How to reach Firebase Authentication: the Web API key, the project, and optionally
/// the Auth Emulator.
///
/// Production URLs are `https://identitytoolkit.googleapis.com/v1/accounts:<op>?key=K`
/// and `https://securetoken.googleapis.com/v1/token?key=K`. With ``emulatorHost`` set
/// (`"127.0.0.1:9099"`, the `FIREBASE_AUTH_EMULATOR_HOST` form) they become
/// `http://HOST:PORT/identitytoolkit.googleapis.com/v1/accounts:<op>?key=K` and
/// `http://HOST:PORT/securetoken.googleapis.com/v1/token?key=K`.
///
/// `description` never contains the API key.
public struct FirebaseConfiguration: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The Web API key sent as the `key` query parameter. A secret for logging purposes.
  public var apiKey: String
  /// The Firebase project ID, when known; used to namespace stored sessions. Must follow
  /// ``FirebaseProjectID`` (6–30 lower-case letters, digits and hyphens).
  public var projectID: String?
  /// The Auth Emulator as `host:port` (`"127.0.0.1:9099"`, `"[::1]:9099"`), or `nil`
  /// for production.
  ///
  /// The emulator is reached over plain HTTP, and its requests carry the API key and, for
  /// a sign-in, the password: only a loopback or private-network host is accepted (the
  /// rule of ``firestoreEmulatorHost`` and of a plain-HTTP NCMB base URL,
  /// ``BackendHTTP/URLLoaderSupport/isPrivateNetwork(host:)``); a public host is
  /// `.misconfigured(setting: "emulatorHost")` when the backend is made.
  public var emulatorHost: String?
  /// Replaces the Identity Toolkit base (`…/v1/`) for a proxy; `nil` for the default.
  /// Plain `http` is accepted only for loopback or the emulator host.
  public var identityToolkitBaseURL: URL?
  /// Replaces the Secure Token endpoint (`…/v1/token`) for a proxy; `nil` for the
  /// default. Plain `http` is accepted only for loopback or the emulator host.
  public var secureTokenURL: URL?
  /// The Firestore emulator as `host:port` (the `FIRESTORE_EMULATOR_HOST` form), or `nil`:
  /// then Firestore requests go to ``emulatorHost`` when that is set (`baas emulator`
  /// serves Auth and Firestore on one port), else to production. See
  /// ``FirebaseUserBackend/userDocuments``.
  ///
  /// With production Auth (``emulatorHost`` `nil`) the Firestore requests carry the
  /// production ID token, and the emulator is reached over plain HTTP: anyone on the path
  /// can read the token and use it against the real project until it expires (an hour).
  /// That is allowed only to a loopback or private-network host (127.0.0.0/8, `::1`,
  /// 10/8, 172.16/12, 192.168/16, `fc00::/7`, a name without a dot or under `.internal`,
  /// `.local`, `.lan`, `.home.arpa`; not link-local nor 0.0.0.0: the rule of a plain-HTTP
  /// NCMB base URL, ``BackendHTTP/HostScope``);
  /// a public host is `.misconfigured(setting: "firestoreEmulatorHost")` when the backend
  /// is made, since no local emulator lives there. Point ``emulatorHost`` at the Auth
  /// emulator too to keep production tokens out of it (`baas` warns on standard error
  /// when this combination is used).
  public var firestoreEmulatorHost: String?

  /// A configuration.
  ///
  /// - Parameters:
  ///   - apiKey: the Web API key; must not be empty (checked by
  ///     ``FirebaseUserBackend/init(configuration:transport:sessionStore:clock:)``).
  ///   - projectID: the project ID, optional.
  ///   - emulatorHost: `host:port` of the Auth Emulator, or `nil` for production.
  ///   - identityToolkitBaseURL: an Identity Toolkit base URL override (ends in `/v1/`).
  ///   - secureTokenURL: a Secure Token endpoint override.
  ///   - firestoreEmulatorHost: `host:port` of the Firestore emulator, or `nil`.
  public init(
    apiKey: String, projectID: String? = nil, emulatorHost: String? = nil,
    identityToolkitBaseURL: URL? = nil, secureTokenURL: URL? = nil,
    firestoreEmulatorHost: String? = nil
  ) {
    self.apiKey = apiKey
    self.projectID = projectID
    self.emulatorHost = emulatorHost
    self.identityToolkitBaseURL = identityToolkitBaseURL
    self.secureTokenURL = secureTokenURL
    self.firestoreEmulatorHost = firestoreEmulatorHost
  }

  /// A ``FileSessionStore`` namespace for this configuration: `"firebase-<projectID>"`,
  /// `"firebase"` without a project ID, `"firebase-emulator_<projectID>"` (or
  /// `"firebase-emulator_"`) with an emulator host. Project IDs contain no `_`, so no two
  /// configurations share a namespace and production and emulator sessions never mix.
  public var sessionNamespace: String {
    let project = projectID ?? ""
    if emulatorHost != nil { return "firebase-emulator_" + project }
    return project.isEmpty ? "firebase" : "firebase-" + project
  }

  /// The settings with the API key redacted.
  public var description: String {
    "FirebaseConfiguration(apiKey: <redacted>, projectID: \(projectID ?? "nil"), "
      + "emulatorHost: \(emulatorHost ?? "nil"), "
      + "firestoreEmulatorHost: \(firestoreEmulatorHost ?? "nil"))"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }

  /// Checks the settings without any network call and returns the resolved endpoints.
  ///
  /// - Throws: ``UserBackendError`` `.misconfigured(setting:reason:)` naming `apiKey`
  ///   (empty), `projectID` (not a ``FirebaseProjectID``), `emulatorHost` (not `host:port`), `identityToolkitBaseURL` or
  ///   `secureTokenURL` (not absolute, or plain `http` to a host that is neither
  ///   loopback nor the emulator host); `firestoreEmulatorHost` as `emulatorHost`. IPv6
  ///   literal hosts (`[::1]:9099`, `http://[::1]:9099/v1/`) are accepted: the default
  ///   transport reaches them (``BackendHTTP/URLSessionTransport`` refuses them on Linux, per
  ///   request, before connecting). The API key is never part of the message.
  func resolvedEndpoints() throws(UserBackendError) -> FirebaseEndpoints {
    guard !apiKey.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw UserBackendError(.misconfigured(setting: "apiKey", reason: "must not be empty"))
    }
    if let projectID, let problem = FirebaseProjectID.problem(with: projectID) {
      throw UserBackendError(.misconfigured(setting: "projectID", reason: problem))
    }
    var emulator: EmulatorAddress?
    if let emulatorHost {
      emulator = try EmulatorAddress(authEmulator: emulatorHost)
    }
    let toolkit: URL
    let token: URL
    if let emulator {
      toolkit = try Self.url(emulator.baseURL + "identitytoolkit.googleapis.com/v1/")
      token = try Self.url(emulator.baseURL + "securetoken.googleapis.com/v1/token")
    } else {
      toolkit = try Self.url("https://identitytoolkit.googleapis.com/v1/")
      token = try Self.url("https://securetoken.googleapis.com/v1/token")
    }
    _ = try resolvedFirestore()
    let finalToolkit = identityToolkitBaseURL ?? toolkit
    let finalToken = secureTokenURL ?? token
    try Self.checkTransportSecurity(
      finalToolkit, setting: "identityToolkitBaseURL", emulatorHost: emulator?.host)
    try Self.checkTransportSecurity(
      finalToken, setting: "secureTokenURL", emulatorHost: emulator?.host)
    var base = finalToolkit.absoluteString
    if !base.hasSuffix("/") { base += "/" }
    return FirebaseEndpoints(
      identityToolkitBase: base, secureToken: finalToken.absoluteString, apiKey: apiKey,
      emulatorHost: emulator?.host)
  }

  private static func url(_ text: String) throws(UserBackendError) -> URL {
    guard let url = URL(string: text) else {
      throw UserBackendError(
        .misconfigured(setting: "emulatorHost", reason: "does not form a valid URL"))
    }
    return url
  }

  /// Refuses plain HTTP except to loopback or the configured emulator host, and a base URL
  /// no transport can use (``BackendHTTP/URLLoaderSupport/baseURLProblem(_:)``).
  static func checkTransportSecurity(_ url: URL, setting: String, emulatorHost: String?)
    throws(UserBackendError)
  {
    let scheme = url.scheme?.lowercased()
    guard let host = url.host?.lowercased(), !host.isEmpty else {
      throw UserBackendError(.misconfigured(setting: setting, reason: "must be an absolute URL"))
    }
    if let problem = URLLoaderSupport.baseURLProblem(url) {
      throw UserBackendError(.misconfigured(setting: setting, reason: problem))
    }
    switch scheme {
    case "https":
      return
    case "http":
      let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
      if URLLoaderSupport.isLoopback(host: bare) { return }
      if let emulatorHost,
        bare == emulatorHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
      {
        return
      }
      throw UserBackendError(
        .misconfigured(
          setting: setting,
          reason: "plain HTTP is refused for \(bare); use https (HTTP is allowed only for "
            + "loopback or the emulator host)"))
    default:
      throw UserBackendError(
        .misconfigured(setting: setting, reason: "the scheme must be https"))
    }
  }
}

/// The Auth Emulator's `host:port`, parsed by the one rule every layer shares
/// (``BackendHTTP/HostAndPort``).
struct EmulatorAddress: Sendable, Hashable {
  /// The host and port.
  let address: HostAndPort

  /// The host as a URL writes it (brackets kept for IPv6).
  var host: String { address.host.contains(":") ? "[\(address.host)]" : address.host }

  /// Parses `host:port` or `[v6]:port` (an IPv6 literal in brackets, as
  /// `FIREBASE_AUTH_EMULATOR_HOST` writes it: `[::1]:9099`).
  /// - Throws: `.misconfigured(setting: "emulatorHost")` with the reason.
  init(parsing text: String) throws(UserBackendError) {
    do {
      address = try HostAndPort(parsing: text)
    } catch {
      throw UserBackendError(.misconfigured(setting: "emulatorHost", reason: error.reason))
    }
  }

  /// `http://host:port/`.
  var baseURL: String { "http://\(address.authority)/" }

  /// Parses the Auth emulator's `host:port` and refuses a host that is neither loopback
  /// nor on a private network (``BackendHTTP/URLLoaderSupport/isPrivateNetwork(host:)``):
  /// the API key and passwords would cross the network in clear text. The reason says what
  /// the host is (``BackendHTTP/HostScope/refusal(host:)``: public, link-local, the
  /// unspecified address).
  /// - Throws: `.misconfigured(setting: "emulatorHost")` with the reason.
  init(authEmulator text: String) throws(UserBackendError) {
    try self.init(parsing: text)
    if let refusal = HostScope(host: address.host).refusal(host: address.host) {
      throw UserBackendError(
        .misconfigured(
          setting: "emulatorHost",
          reason: "\(address.host) \(refusal); the emulator "
            + "is reached over plain HTTP, so the API key and passwords would cross the "
            + "network in clear text; run the Auth emulator on this machine or a private "
            + "network"))
    }
  }
}

/// The resolved endpoint URLs and the API key, ready to build requests.
struct FirebaseEndpoints: Sendable, Hashable {
  /// The Identity Toolkit base, ending in `/v1/`.
  let identityToolkitBase: String
  /// The Secure Token endpoint.
  let secureToken: String
  /// The API key (never logged).
  let apiKey: String
  /// The emulator host, when the emulator is targeted.
  let emulatorHost: String?

  /// The URL of `service` with `?key=` appended (the key percent-encoded).
  func url(for service: FirebaseService) -> URL? {
    let base: String
    switch service {
    case .identityToolkit(let path): base = identityToolkitBase + path
    case .secureToken: base = secureToken
    }
    // On the bytes: Foundation's `StringProtocol.contains` bridges to NSString, a visible
    // share of the adapter's own sign-in work (`baas bench`).
    let separator = base.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
    return URL(string: base + separator + "key=" + FormURLEncoding.escape(apiKey))
  }
}
