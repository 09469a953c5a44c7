import AccountDatabase
import BackendHTTP
import FakeUserBackend
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds the configured ``UserBackendKit/UserBackend``:
///
/// ```swift
/// let backend = try await UserBackends.make(from: .environment())
/// ```
public enum UserBackends {
  /// Builds the backend `configuration` selects, with a ``UserBackendKit/FileSessionStore``
  /// in its state directory (see ``sessionNamespace(for:)``). The session file's I/O
  /// errors are thrown by the backend as `misconfigured` ``UserBackendKit/UserBackendError``s
  /// naming `BAAS_HOME` (``BackendConfigurationError/stateDirectorySetting``) and the file,
  /// the same on every backend.
  ///
  /// - fake: a `FakeUserBackend` over the SQLite file `<home>/fake.sqlite` (created, with
  ///   the state directory, on first use).
  /// - firebase: a `FirebaseUserBackend` (the emulator URL form when `emulatorHost` is set).
  /// - ncmb: an `NCMBUserBackend` against the base URL.
  ///
  /// - Parameters:
  ///   - configuration: a configuration from
  ///     ``BackendConfiguration/resolve(environment:configFile:backend:)``; validated again.
  ///   - transport: the HTTP transport for firebase and ncmb; `nil` means
  ///     `NetworkTransport.standard()` (the network). Ignored by the fake.
  /// - Throws: ``BackendConfigurationError`` for an unusable configuration or state
  ///   directory or an unopenable fake database; the backend's own initialisation errors.
  public static func make(
    from configuration: BackendConfiguration, transport: (any HTTPTransport)? = nil
  ) async throws -> any UserBackend {
    // The settings first: a missing key is the problem to report, before the state
    // directory's permissions.
    try configuration.validate()
    return try await make(
      from: configuration, transport: transport,
      sessionStore: try self.sessionStore(for: configuration))
  }

  /// The session stored for `configuration`'s backend, read from its session file without
  /// building the backend: no network call and no database, so it works in a read-only
  /// state directory. `nil` when signed out.
  /// - Throws: ``BackendConfigurationError`` when there is no state directory;
  ///   ``UserBackendKit/UserBackendError`` `.misconfigured` naming `BAAS_HOME` and the file
  ///   when the session file cannot be read.
  public static func storedSession(for configuration: BackendConfiguration) async throws
    -> AuthSession?
  {
    try await SessionEngine(store: sessionStore(for: configuration)).session()
  }

  /// Builds the backend `configuration` selects with a given session store and clock (the
  /// contract harnesses pass an in-memory store and a `ManualClock`).
  ///
  /// - Parameters:
  ///   - transport: the HTTP transport for firebase and ncmb; `nil` means
  ///     `NetworkTransport.standard()`. Ignored by the fake.
  ///   - clock: the clock firebase and ncmb read (token expiry, NCMB timestamps). The fake
  ///     reads its store's clock.
  /// - Throws: ``BackendConfigurationError`` or the backend's initialisation error.
  public static func make(
    from configuration: BackendConfiguration, transport: (any HTTPTransport)? = nil,
    sessionStore: any SessionStore, clock: any AuthClock = SystemClock()
  ) async throws -> any UserBackend {
    try configuration.validate()
    switch configuration.backend {
    case .fake:
      return FakeUserBackend(
        store: try await fakeStore(for: configuration), sessionStore: sessionStore)
    case .firebase:
      return try FirebaseUserBackend(
        configuration: FirebaseConfiguration(
          apiKey: configuration.firebase.apiKey ?? "",
          projectID: configuration.firebase.projectID,
          emulatorHost: configuration.firebase.emulatorHost,
          firestoreEmulatorHost: configuration.firebase.firestoreEmulatorHost),
        transport: transport ?? NetworkTransport.standard(),
        sessionStore: sessionStore, clock: clock)
    case .ncmb:
      return try NCMBUserBackend(
        configuration: NCMBConfiguration(
          applicationKey: configuration.ncmb.applicationKey ?? "",
          clientKey: configuration.ncmb.clientKey ?? "",
          baseURL: try configuration.ncmbBaseURL()),
        transport: transport ?? NetworkTransport.standard(),
        sessionStore: sessionStore, clock: clock)
    }
  }

  /// The secret values of `configuration` (API key, application key, client key; those
  /// that are set), for leak scans of cassettes and output.
  public static func secrets(of configuration: BackendConfiguration) -> [String] {
    [
      configuration.firebase.apiKey, configuration.ncmb.applicationKey,
      configuration.ncmb.clientKey,
    ]
    .compactMap { $0 }.filter { !$0.isEmpty }
  }

  /// The state directory of `configuration` (``BackendConfiguration/home``).
  /// - Throws: ``BackendConfigurationError`` `.missingSetting` when `home` is `nil` (a
  ///   configuration that did not go through `resolve`).
  public static func stateDirectory(for configuration: BackendConfiguration) throws -> URL {
    guard let home = configuration.home, !home.isEmpty else {
      throw BackendConfigurationError(
        .missingSetting,
        setting: BackendConfiguration.settingName(ConfigurationVariable.home, "home"),
        reason: "no state directory; set BAAS_HOME")
    }
    return URL(fileURLWithPath: home, isDirectory: true)
  }

  /// The session store of the configured backend:
  /// `<home>/<namespace>.session.json`, mode 0600 (its lock file
  /// `<namespace>.session.lock` beside it); failures name `BAAS_HOME`.
  /// - Throws: ``BackendConfigurationError`` when there is no state directory, or when
  ///   others may write in it (``StatePermissions/checkDirectory(_:)``).
  public static func sessionStore(for configuration: BackendConfiguration) throws
    -> FileSessionStore
  {
    let directory = try stateDirectory(for: configuration)
    try StatePermissions.checkDirectory(directory)
    return FileSessionStore(
      directory: directory,
      namespace: sessionNamespace(for: configuration),
      setting: BackendConfigurationError.stateDirectorySetting)
  }

  /// Checks, before anything is sent, that a sign-in could be kept: the state directory
  /// exists (or is created, mode 0700), this process can write in it, and the session
  /// file and its lock files, where they exist, are this user's
  /// (``StatePermissions``). Without this a server would create the account or session
  /// and only then would saving it fail.
  /// - Throws: ``BackendConfigurationError`` naming `BAAS_HOME` (config key `home`) and
  ///   the directory or file.
  public static func checkStateDirectoryWritable(for configuration: BackendConfiguration)
    throws
  {
    let directory = try createdStateDirectory(for: configuration)
    let setting = BackendConfiguration.settingName(ConfigurationVariable.home, "home")
    guard access(directory.path, W_OK | X_OK) == 0 else {
      throw BackendConfigurationError(
        .invalidSetting, setting: setting,
        reason:
          "the state directory \(directory.path) is not writable, so a session could not be kept")
    }
    do {
      try sessionStore(for: configuration).checkFiles()
    } catch {
      throw BackendConfigurationError.localState(error) ?? error
    }
  }

  /// The state directory, created (mode 0700, with its parents) when missing.
  /// - Throws: ``BackendConfigurationError`` naming `BAAS_HOME` when it cannot be created.
  private static func createdStateDirectory(for configuration: BackendConfiguration) throws
    -> URL
  {
    let directory = try stateDirectory(for: configuration)
    try StatePermissions.checkDirectory(directory)
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw BackendConfigurationError(
        .invalidSetting,
        setting: BackendConfiguration.settingName(ConfigurationVariable.home, "home"),
        reason: "the state directory \(directory.path) cannot be created")
    }
    return directory
  }

  /// Opens (creating when missing) the fake's database `<home>/fake.sqlite`; the state
  /// directory is created with mode 0700. A state directory others may write in, or a
  /// database file others may read or another user owns, is refused
  /// (``StatePermissions``).
  /// - Throws: ``BackendConfigurationError`` naming `BAAS_HOME` when the directory cannot
  ///   be created or the database cannot be opened (with SQLite's reason).
  public static func fakeStore(for configuration: BackendConfiguration) async throws -> UserStore {
    let directory = try createdStateDirectory(for: configuration)
    let path = directory.appendingPathComponent("fake.sqlite").path
    try StatePermissions.checkDatabase(path)
    do {
      return try await openUserStore(atPath: path)
    } catch {
      throw BackendConfigurationError.localState(
        error, file: "the fake's database", action: "open", path: path) ?? error
    }
  }

  /// Opens a `UserStore` file (the fake's database, `baas emulator --data FILE`), creating
  /// it owner-only (mode 0600) first when missing: it holds password hashes and tokens,
  /// and SQLite gives its `-wal` and `-shm` files the same mode. `":memory:"` is passed
  /// through. `passwordHashIterations` is the PBKDF2 cost of passwords set from now on
  /// (stored hashes keep their own count). A path that exists and is not a regular file
  /// (a FIFO, a device, a directory) is refused without blocking, and so is a file of
  /// another user (`LocalFileTrust`; callers check the `-wal` and `-shm` files first with
  /// ``StatePermissions/checkDatabase(_:setting:name:)``). The file is opened with
  /// `UserStore.open`, off the cooperative pool: the first open of a new file may wait
  /// for other processes creating it.
  /// - Throws: the store's `UserStoreError`; `BoundedFileRead.NotRegularFile`;
  ///   `LocalFileTrust.ForeignOwner`.
  public static func openUserStore(atPath path: String, passwordHashIterations: Int = 10_000)
    async throws -> UserStore
  {
    if path != ":memory:" {
      // Non-blocking, then fstat: a FIFO (or a link to a device) is refused at once, never
      // opened by SQLite.
      let descriptor = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o600)
      if descriptor >= 0 {
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
          throw BoundedFileRead.NotRegularFile(
            path: path, kind: BoundedFileRead.kindName(status.st_mode & S_IFMT))
        }
        try LocalFileTrust.checkOwner(status, path: path)
      }
    }
    return try await UserStore.open(path: path, passwordHashIterations: passwordHashIterations)
  }

  /// The session-file namespace, one per backend and server, so switching backends,
  /// projects or servers never mixes sessions (a session token is only ever sent to the
  /// server that issued it):
  /// - fake: `fake`
  /// - firebase: `firebase-<projectID>`; without a project ID the API key selects the
  ///   project, so `firebase_apikey_<first 12 hex digits of SHA-256(API key)>`; against an
  ///   emulator `firebase-emulator_<projectID>_<host>_<port>` (an empty project ID without
  ///   one). Project IDs contain no `_` (``validate()`` checks them), so no two projects,
  ///   emulators or production and emulator ever share a file. The Firestore emulator
  ///   host is not part of it: it serves the documents, not the session;
  /// - ncmb: `ncmb-<host>[-<port>]-<first 12 hex digits of SHA-256(application key)>`, and
  ///   unless the base URL is `https` without a path prefix, `-<first 12 hex digits of
  ///   SHA-256(normalized base URL)>` after it: the scheme and the path prefix select the
  ///   server too (the normalized URL is the lower-case scheme and host, the port as
  ///   written and the path without trailing slashes). No key ever appears in a file name.
  public static func sessionNamespace(for configuration: BackendConfiguration) -> String {
    switch configuration.backend {
    case .fake:
      return "fake"
    case .firebase:
      let project = configuration.firebase.projectID ?? ""
      guard let host = configuration.firebase.emulatorHost,
        let parsed = try? BackendConfiguration.parseHostPort(host)
      else {
        if !project.isEmpty { return "firebase-\(project)" }
        let apiKey = configuration.firebase.apiKey ?? ""
        guard !apiKey.isEmpty else { return "firebase" }
        return "firebase_apikey_" + Crypto.sha256Hex(apiKey).prefix(12)
      }
      return "firebase-emulator_\(project)_\(parsed.host)_\(parsed.port)"
    case .ncmb:
      let url = try? configuration.ncmbBaseURL()
      var name = "ncmb-" + (url?.host?.lowercased() ?? "invalid")
      if let port = url?.port { name += "-\(port)" }
      let keyHash = Crypto.sha256Hex(configuration.ncmb.applicationKey ?? "")
      name += "-" + keyHash.prefix(12)
      guard let url else { return name }
      // Kept as it was for the usual https base URL without a prefix (sessions of earlier
      // versions stay valid); any other scheme or a prefix gets its own file.
      let scheme = url.scheme?.lowercased() ?? ""
      var path =
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
      while path.hasSuffix("/") { path.removeLast() }
      if scheme == "https" && path.isEmpty { return name }
      let host = url.host?.lowercased() ?? ""
      var normalized = scheme + "://" + (host.contains(":") ? "[\(host)]" : host)
      if let port = url.port { normalized += ":\(port)" }
      normalized += path
      return name + "-" + Crypto.sha256Hex(normalized).prefix(12)
    }
  }
}
