import Foundation

/// Which ``UserBackendKit/UserBackend`` implementation to build.
public enum BackendKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// The local fake over a SQLite file in the state directory.
  case fake
  /// Firebase Authentication (Identity Toolkit v1 + Secure Token REST), or its emulator.
  case firebase
  /// An NCMB-style REST server (NIFCLOUD mobile backend's wire protocol).
  case ncmb
}

/// Everything needed to build a backend: which one, where state lives, and each backend's
/// settings.
///
/// Comes from a JSON file (`--config FILE` or `BAAS_CONFIG`) whose keys are the property
/// names below, overridden by environment variables (see
/// ``resolve(environment:configFile:backend:)``):
///
/// ```json
/// { "backend": "firebase", "home": "~/.local/state/baas",
///   "firebase": { "apiKey": "…", "projectID": "my-project", "emulatorHost": "127.0.0.1:9099",
///                 "firestoreEmulatorHost": "127.0.0.1:8080" },
///   "ncmb": { "applicationKey": "…", "clientKey": "…",
///             "baseURL": "https://mbaas.api.nifcloud.com" } }
/// ```
///
/// `description` redacts the API key, application key and client key.
public struct BackendConfiguration: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The backend to build; default ``BackendKind/fake``.
  public var backend: BackendKind
  /// The state directory (sessions, the fake's database); `~/` is expanded on resolve.
  /// `nil` means the default: `$XDG_STATE_HOME/baas`, else `~/.local/state/baas`.
  public var home: String?
  /// Firebase settings (used when ``backend`` is `.firebase`).
  public var firebase: FirebaseSettings
  /// NCMB settings (used when ``backend`` is `.ncmb`).
  public var ncmb: NCMBSettings

  /// Firebase Authentication settings.
  public struct FirebaseSettings: Sendable, Hashable, Codable {
    /// The Web API key (`FIREBASE_API_KEY`). A secret for this tool: never printed.
    public var apiKey: String?
    /// The project ID (`FIREBASE_PROJECT_ID`); names the session file.
    public var projectID: String?
    /// `host:port` of the Auth emulator (`FIREBASE_AUTH_EMULATOR_HOST`), e.g.
    /// `127.0.0.1:9099`; `nil` for production.
    public var emulatorHost: String?
    /// `host:port` of the Firestore emulator (`FIRESTORE_EMULATOR_HOST`), e.g.
    /// `127.0.0.1:8080`; `nil` means the Auth emulator's address when ``emulatorHost`` is
    /// set (`baas emulator` serves both on one port), else production Firestore.
    public var firestoreEmulatorHost: String?

    /// Settings; every field optional until validated.
    public init(
      apiKey: String? = nil, projectID: String? = nil, emulatorHost: String? = nil,
      firestoreEmulatorHost: String? = nil
    ) {
      self.apiKey = apiKey
      self.projectID = projectID
      self.emulatorHost = emulatorHost
      self.firestoreEmulatorHost = firestoreEmulatorHost
    }
  }

  /// NCMB settings.
  public struct NCMBSettings: Sendable, Hashable, Codable {
    /// The application key (`NCMB_APPLICATION_KEY`). Never printed.
    public var applicationKey: String?
    /// The client key (`NCMB_CLIENT_KEY`), the HMAC key of the signature. Never printed.
    public var clientKey: String?
    /// The server's base URL (`NCMB_BASE_URL`); `nil` means
    /// ``BackendConfiguration/defaultNCMBBaseURL``. The signature uses its host.
    public var baseURL: String?

    /// Settings; every field optional until validated.
    public init(applicationKey: String? = nil, clientKey: String? = nil, baseURL: String? = nil) {
      self.applicationKey = applicationKey
      self.clientKey = clientKey
      self.baseURL = baseURL
    }
  }

  /// `https://mbaas.api.nifcloud.com`, the NCMB base URL when none is configured.
  public static let defaultNCMBBaseURL = "https://mbaas.api.nifcloud.com"

  /// A configuration; the default is the fake backend in the default state directory.
  public init(
    backend: BackendKind = .fake, home: String? = nil,
    firebase: FirebaseSettings = FirebaseSettings(), ncmb: NCMBSettings = NCMBSettings()
  ) {
    self.backend = backend
    self.home = home
    self.firebase = firebase
    self.ncmb = ncmb
  }

  /// The backend and every setting, with secrets shown as `<redacted>` (or `nil`).
  public var description: String {
    func secret(_ value: String?) -> String { value == nil ? "nil" : "<redacted>" }
    func plain(_ value: String?) -> String { value ?? "nil" }
    return "BackendConfiguration(backend: \(backend.rawValue), home: \(plain(home)), "
      + "firebase: (apiKey: \(secret(firebase.apiKey)), projectID: \(plain(firebase.projectID)), "
      + "emulatorHost: \(plain(firebase.emulatorHost)), firestoreEmulatorHost: "
      + "\(plain(firebase.firestoreEmulatorHost))), ncmb: (applicationKey: "
      + "\(secret(ncmb.applicationKey)), clientKey: \(secret(ncmb.clientKey)), baseURL: "
      + "\(plain(ncmb.baseURL))))"
  }

  // MARK: Codable (the config file)

  private enum CodingKeys: String, CodingKey, CaseIterable {
    case backend, home, firebase, ncmb
  }
  private enum FirebaseKeys: String, CodingKey, CaseIterable {
    case apiKey, projectID, emulatorHost, firestoreEmulatorHost
  }
  private enum NCMBKeys: String, CodingKey, CaseIterable {
    case applicationKey, clientKey, baseURL
  }

  /// Decodes the config-file shape. Every key is optional; an unknown key (a typo such as
  /// `apikey`) and an unknown backend name are errors.
  ///
  /// - Throws: ``BackendConfigurationError`` (`.unknownBackend`, `.unreadableFile` naming
  ///   the key), or a `DecodingError` for a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    try Self.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases, path: "")
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let name = try container.decodeIfPresent(String.self, forKey: .backend) {
      backend = try Self.backendKind(named: name, setting: "config key backend (config file)")
    } else {
      backend = .fake
    }
    home = try container.decodeIfPresent(String.self, forKey: .home)
    if container.contains(.firebase) {
      let nested = try container.superDecoder(forKey: .firebase)
      try Self.rejectUnknownKeys(in: nested, known: FirebaseKeys.allCases, path: "firebase.")
      let firebaseContainer = try nested.container(keyedBy: FirebaseKeys.self)
      firebase = FirebaseSettings(
        apiKey: try firebaseContainer.decodeIfPresent(String.self, forKey: .apiKey),
        projectID: try firebaseContainer.decodeIfPresent(String.self, forKey: .projectID),
        emulatorHost: try firebaseContainer.decodeIfPresent(String.self, forKey: .emulatorHost),
        firestoreEmulatorHost: try firebaseContainer.decodeIfPresent(
          String.self, forKey: .firestoreEmulatorHost))
    } else {
      firebase = FirebaseSettings()
    }
    if container.contains(.ncmb) {
      let nested = try container.superDecoder(forKey: .ncmb)
      try Self.rejectUnknownKeys(in: nested, known: NCMBKeys.allCases, path: "ncmb.")
      let ncmbContainer = try nested.container(keyedBy: NCMBKeys.self)
      ncmb = NCMBSettings(
        applicationKey: try ncmbContainer.decodeIfPresent(String.self, forKey: .applicationKey),
        clientKey: try ncmbContainer.decodeIfPresent(String.self, forKey: .clientKey),
        baseURL: try ncmbContainer.decodeIfPresent(String.self, forKey: .baseURL))
    } else {
      ncmb = NCMBSettings()
    }
  }

  /// Encodes the config-file shape (secrets included: this writes a config file).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(backend.rawValue, forKey: .backend)
    try container.encodeIfPresent(home, forKey: .home)
    try container.encode(firebase, forKey: .firebase)
    try container.encode(ncmb, forKey: .ncmb)
  }

  /// The backend called `name` (case-insensitive, trimmed).
  ///
  /// The same rule holds for `--backend`, `BAAS_BACKEND` and the file's `backend`: an
  /// unknown name is echoed (lower-cased, in quotes) when it looks like a name, at most 20
  /// ASCII letters and digits (`"firebse" is not a known backend`); any other value is
  /// "the value", so a key pasted into the wrong setting is never printed.
  /// - Throws: ``BackendConfigurationError`` `.unknownBackend` naming `setting` and listing
  ///   the known names.
  public static func backendKind(named name: String, setting: String) throws -> BackendKind {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    if let kind = BackendKind(rawValue: trimmed) { return kind }
    let known = BackendKind.allCases.map(\.rawValue).joined(separator: ", ")
    let printable =
      trimmed.count <= 20 && trimmed.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    let shown = printable && !trimmed.isEmpty ? "\"\(trimmed)\"" : "the value"
    throw BackendConfigurationError(
      .unknownBackend, setting: setting,
      reason: "\(shown) is not a known backend; use one of \(known)")
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static func rejectUnknownKeys<Key: CodingKey>(
    in decoder: any Decoder, known: [Key], path: String
  ) throws {
    let names = Set(known.map(\.stringValue))
    let container = try decoder.container(keyedBy: AnyKey.self)
    let unknown = container.allKeys.map(\.stringValue).filter { !names.contains($0) }.sorted()
    guard let first = unknown.first else { return }
    throw BackendConfigurationError(
      .unreadableFile, setting: "config file key \(path)\(first)",
      reason: "unknown key; known keys here: "
        + known.map { path + $0.stringValue }.joined(separator: ", "))
  }
}
