import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment variables `baas` and ``BackendConfiguration`` read.
public enum ConfigurationVariable {
  /// `BAAS_CONFIG`: path of the JSON config file (when `--config` is not given).
  public static let config = "BAAS_CONFIG"
  /// `BAAS_BACKEND`: `fake`, `firebase` or `ncmb`.
  public static let backend = "BAAS_BACKEND"
  /// `BAAS_HOME`: the state directory.
  public static let home = "BAAS_HOME"
  /// `FIREBASE_API_KEY`.
  public static let firebaseAPIKey = "FIREBASE_API_KEY"
  /// `FIREBASE_PROJECT_ID`.
  public static let firebaseProjectID = "FIREBASE_PROJECT_ID"
  /// `FIREBASE_AUTH_EMULATOR_HOST`: `host:port`.
  public static let firebaseEmulatorHost = "FIREBASE_AUTH_EMULATOR_HOST"
  /// `FIRESTORE_EMULATOR_HOST`: `host:port` of the Firestore emulator.
  public static let firestoreEmulatorHost = "FIRESTORE_EMULATOR_HOST"
  /// `NCMB_APPLICATION_KEY`.
  public static let ncmbApplicationKey = "NCMB_APPLICATION_KEY"
  /// `NCMB_CLIENT_KEY`.
  public static let ncmbClientKey = "NCMB_CLIENT_KEY"
  /// `NCMB_BASE_URL`.
  public static let ncmbBaseURL = "NCMB_BASE_URL"
}

extension BackendConfiguration {
  /// Reads the configuration the way `baas` does, from this process's environment.
  ///
  /// Same as ``resolve(environment:configFile:backend:)`` with
  /// ``ProcessEnvironment/current()`` (the environment read as bytes: a variable read that
  /// is not valid UTF-8 is refused, never changed).
  /// - Throws: ``BackendConfigurationError``.
  public static func environment(configFile: String? = nil, backend: String? = nil) throws
    -> BackendConfiguration
  {
    try resolve(
      environment: ProcessEnvironment.current(), configFile: configFile, backend: backend)
  }

  /// Builds and validates a configuration. Later sources win:
  /// 1. defaults (backend `fake`, NCMB base URL `https://mbaas.api.nifcloud.com`),
  /// 2. the JSON file `configFile`, else the file named by `BAAS_CONFIG`,
  /// 3. the environment variables (`BAAS_BACKEND`, `BAAS_HOME`, `FIREBASE_API_KEY`,
  ///    `FIREBASE_PROJECT_ID`, `FIREBASE_AUTH_EMULATOR_HOST`, `FIRESTORE_EMULATOR_HOST`,
  ///    `NCMB_APPLICATION_KEY`,
  ///    `NCMB_CLIENT_KEY`, `NCMB_BASE_URL`); an empty variable counts as unset,
  /// 4. `backend` (the `--backend` option).
  ///
  /// The result has ``home`` set to an absolute state directory (`BAAS_HOME`, else the
  /// file's `home`, else `$XDG_STATE_HOME/baas`, else `$HOME/.local/state/baas`) that is
  /// not an existing regular file (nor below one), and passes ``validate()``. Every path
  /// setting (`configFile`, `BAAS_CONFIG`, `BAAS_HOME`, the file's `home`, `HOME`,
  /// `XDG_STATE_HOME`) passes ``PathSetting/check(_:setting:)``: not empty (an empty
  /// variable counts as unset, an empty `home` key is refused), no NUL, no control
  /// character; `~` and `~/…` in `configFile`, `BAAS_CONFIG`, `BAAS_HOME` and `home` are
  /// `$HOME`'s, and any other leading `~` (`~user/…`) is refused.
  ///
  /// - Parameter environment: the variables to read (pass a dictionary in tests); a
  ///   ``ProcessEnvironment/undecodableValue`` is refused when its variable is read.
  /// - Throws: ``BackendConfigurationError``: an unreadable file, an unknown backend name,
  ///   a missing or malformed setting of the selected backend. Never contains a secret
  ///   value (an unknown backend name is echoed only when it looks like a name).
  public static func resolve(
    environment: [String: String], configFile: String? = nil, backend: String? = nil
  ) throws -> BackendConfiguration {
    func variable(_ name: String) throws -> String? {
      try ProcessEnvironment.value(name, in: environment)
    }
    // A backend's own settings matter only when it is selected (checked below); another
    // backend's variable that is not valid UTF-8 counts as unset.
    func backendVariable(_ name: String) -> String? {
      (try? variable(name)) ?? nil
    }
    var configuration = BackendConfiguration()
    if let path = try configFile ?? variable(ConfigurationVariable.config) {
      let setting = configFile != nil ? "--config" : ConfigurationVariable.config
      try PathSetting.check(path, setting: setting)
      try checkTilde(path, setting: setting)
      let file = try expandingTilde(path, environment: environment)
      configuration = try load(
        file: file, option: configFile != nil ? "--config" : ConfigurationVariable.config)
      // The key is checked as written, before a relative value is made the file's: an
      // empty `home` is refused (it would otherwise read as unset and the default
      // directory would be used without a word).
      if let home = configuration.home {
        let setting = "config key home (\(ConfigurationVariable.home))"
        try PathSetting.check(home, setting: setting)
        try checkTilde(home, setting: setting)
      }
      // A relative `home` in the file is the file's: one config file means one state
      // directory, whatever the working directory.
      if let home = configuration.home, !home.isEmpty, !home.hasPrefix("/"), home != "~",
        !home.hasPrefix("~/")
      {
        configuration.home =
          URL(fileURLWithPath: file).deletingLastPathComponent()
          .appendingPathComponent(home).standardizedFileURL.path
      }
    }
    if let name = try variable(ConfigurationVariable.backend) {
      configuration.backend = try backendKind(
        named: name, setting: settingName(ConfigurationVariable.backend, "backend"))
    }
    if let name = backend {
      configuration.backend = try backendKind(named: name, setting: "--backend")
    }
    // Which setting names the state directory, for the refusal of one that is a file.
    var homeSetting = "config key home"
    if let value = try variable(ConfigurationVariable.home) {
      try PathSetting.check(value, setting: ConfigurationVariable.home)
      try checkTilde(value, setting: ConfigurationVariable.home)
      configuration.home = value
      homeSetting = ConfigurationVariable.home
    }
    if let value = backendVariable(ConfigurationVariable.firebaseAPIKey) {
      configuration.firebase.apiKey = value
    }
    if let value = backendVariable(ConfigurationVariable.firebaseProjectID) {
      configuration.firebase.projectID = value
    }
    if let value = backendVariable(ConfigurationVariable.firebaseEmulatorHost) {
      configuration.firebase.emulatorHost = value
    }
    if let value = backendVariable(ConfigurationVariable.firestoreEmulatorHost) {
      configuration.firebase.firestoreEmulatorHost = value
    }
    if let value = backendVariable(ConfigurationVariable.ncmbApplicationKey) {
      configuration.ncmb.applicationKey = value
    }
    if let value = backendVariable(ConfigurationVariable.ncmbClientKey) {
      configuration.ncmb.clientKey = value
    }
    if let value = backendVariable(ConfigurationVariable.ncmbBaseURL) {
      configuration.ncmb.baseURL = value
    }
    let selected: [String] =
      switch configuration.backend {
      case .fake: []
      case .firebase:
        [
          ConfigurationVariable.firebaseAPIKey, ConfigurationVariable.firebaseProjectID,
          ConfigurationVariable.firebaseEmulatorHost, ConfigurationVariable.firestoreEmulatorHost,
        ]
      case .ncmb:
        [
          ConfigurationVariable.ncmbApplicationKey, ConfigurationVariable.ncmbClientKey,
          ConfigurationVariable.ncmbBaseURL,
        ]
      }
    for name in selected { _ = try variable(name) }
    let home = try resolvedHome(configuration.home, environment: environment)
    configuration.home = home.path
    try checkStateDirectory(home.path, decidedBy: home.decidedBy ?? homeSetting)
    try configuration.validate()
    return configuration
  }

  /// Decodes a JSON config file, after checking who may change or read it
  /// (``ConfigFilePermissions``): it decides where passwords and keys are sent and may
  /// hold keys.
  /// - Parameter option: what named the file (`"--config"`, `"BAAS_CONFIG"`), for the
  ///   permission errors.
  /// - Throws: ``BackendConfigurationError`` `.unreadableFile` (missing, not a regular
  ///   file — a FIFO is refused without blocking —, larger than
  ///   `BoundedFileRead.smallFileLimit`, not JSON, a value
  ///   of the wrong type, an unknown key), `.unknownBackend`, or `.invalidSetting` (a
  ///   file of another user, one others may write in, or one others may read that holds
  ///   a key). The message names the file and the key, never a value.
  public static func load(file path: String, option: String? = nil) throws
    -> BackendConfiguration
  {
    let data: Data
    var status = stat()
    do {
      data = try BoundedFileRead.data(
        contentsOf: URL(fileURLWithPath: path), limit: BoundedFileRead.smallFileLimit
      ) { opened in
        status = opened
        try ConfigFilePermissions.checkBeforeReading(opened, path: path, option: option)
      }
    } catch let error as BackendConfigurationError {
      throw error
    } catch is BoundedFileRead.TooLarge {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)",
        reason: "is larger than \(BoundedFileRead.smallFileLimit) bytes")
    } catch let error as BoundedFileRead.NotRegularFile {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)", reason: error.reason)
    } catch let error as BoundedFileRead.Failure {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)", reason: "cannot be read (\(error.reason))")
    } catch {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)", reason: "cannot be read")
    }
    // Read by the document reader first, which refuses a key that appears twice in an
    // object: `JSONDecoder` would let the first `"backend"` win silently. JSON it cannot
    // read at all is left to the decoder, which names what is wrong.
    if let text = String(data: data, encoding: .utf8),
      case .unusable(let reason) = DocumentJSONReader.read(text)
    {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)", reason: reason)
    }
    do {
      let configuration = try JSONDecoder().decode(BackendConfiguration.self, from: data)
      try ConfigFilePermissions.checkSecrets(
        of: configuration, status: status, path: path, option: option)
      return configuration
    } catch var error as BackendConfigurationError {
      if error.kind == .unknownBackend { error.setting = "config file \(path), config key backend" }
      throw error
    } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)",
        reason: "is not a JSON object: the whole file is one object of settings")
    } catch let DecodingError.typeMismatch(_, context) {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path) key \(keyPath(context.codingPath))",
        reason: "wrong type; every value is a string (or an object for firebase and ncmb)")
    } catch {
      throw BackendConfigurationError(
        .unreadableFile, setting: "config file \(path)",
        reason: "is not a JSON object of the expected shape")
    }
  }

  /// Checks the settings of the selected backend (others are ignored).
  ///
  /// - firebase: `apiKey` is set; `emulatorHost`, when set, is `host:port` with a port in
  ///   1…65535 and no scheme or path (an IPv6 literal in brackets, `[::1]:9099`) on a
  ///   loopback or private-network host (`URLLoaderSupport.isPrivateNetwork(host:)`, not
  ///   link-local nor 0.0.0.0: it is reached in plain HTTP; `HostScope` says why not);
  ///   `firestoreEmulatorHost` likewise; `projectID`, when set, is a Google project ID
  ///   (``FirebaseUserBackend/FirebaseProjectID``: 6–30 lower-case ASCII letters, digits and
  ///   hyphens, starting with a letter, not ending with a hyphen; `demo-…` emulator IDs
  ///   follow the same rule).
  /// - ncmb: `applicationKey` and `clientKey` are set; `baseURL`, when set, is an absolute
  ///   `https` URL with a host and no query or fragment; `http` only to a loopback host
  ///   (`http://127.0.0.1:9099`, `http://[::1]:9099`;
  ///   `NCMBUserBackend/NCMBConfiguration/plainHTTPProblem(_:)`).
  /// - Throws: ``BackendConfigurationError`` naming the variable and the file key.
  public func validate() throws {
    switch backend {
    case .fake:
      break
    case .firebase:
      try Self.require(
        firebase.apiKey, variable: ConfigurationVariable.firebaseAPIKey, key: "firebase.apiKey",
        hint: "the Web API key from the Firebase console (any value for the emulator)")
      if let projectID = firebase.projectID,
        let problem = FirebaseProjectID.problem(with: projectID)
      {
        throw BackendConfigurationError(
          .invalidSetting,
          setting: Self.settingName(ConfigurationVariable.firebaseProjectID, "firebase.projectID"),
          reason: problem)
      }
      if let host = firebase.emulatorHost {
        let parsed = try Self.parseHostPort(host)
        // Plain HTTP carrying the API key and passwords: only to a local emulator.
        if let refusal = HostScope(host: parsed.host).refusal(host: parsed.host) {
          throw BackendConfigurationError(
            .invalidSetting,
            setting: Self.settingName(
              ConfigurationVariable.firebaseEmulatorHost, "firebase.emulatorHost"),
            reason: "\(refusal); the Auth emulator is reached in plain HTTP, so the API "
              + "key and passwords would cross the network in clear text; use a loopback or "
              + "private-network emulator")
        }
      }
      if let host = firebase.firestoreEmulatorHost {
        let setting = Self.settingName(
          ConfigurationVariable.firestoreEmulatorHost, "firebase.firestoreEmulatorHost")
        let parsed: (host: String, port: Int)
        do {
          parsed = try Self.parseHostPort(host)
        } catch var error as BackendConfigurationError {
          error.setting = setting
          throw error
        }
        // Production Auth sends its ID tokens there in plain HTTP: only to a local emulator.
        if firebase.emulatorHost == nil,
          let refusal = HostScope(host: parsed.host).refusal(host: parsed.host)
        {
          throw BackendConfigurationError(
            .invalidSetting, setting: setting,
            reason: "\(refusal), and without \(ConfigurationVariable.firebaseEmulatorHost) "
              + "the production ID token would go to it in plain HTTP; use a loopback or "
              + "private-network Firestore emulator, or set "
              + "\(ConfigurationVariable.firebaseEmulatorHost) too")
        }
      }
    case .ncmb:
      try Self.require(
        ncmb.applicationKey, variable: ConfigurationVariable.ncmbApplicationKey,
        key: "ncmb.applicationKey", hint: "the application key of the NCMB app")
      try Self.require(
        ncmb.clientKey, variable: ConfigurationVariable.ncmbClientKey, key: "ncmb.clientKey",
        hint: "the client key of the NCMB app")
      _ = try ncmbBaseURL()
    }
  }

  /// The validated NCMB base URL (``NCMBSettings/baseURL`` or the default).
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `NCMB_BASE_URL`.
  public func ncmbBaseURL() throws -> URL {
    let text = ncmb.baseURL ?? Self.defaultNCMBBaseURL
    let setting = Self.settingName(ConfigurationVariable.ncmbBaseURL, "ncmb.baseURL")
    guard let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.query == nil, components.fragment == nil,
      let url = components.url
    else {
      throw BackendConfigurationError(
        .invalidSetting, setting: setting,
        reason: "must be an absolute http(s) URL such as https://mbaas.api.nifcloud.com "
          + "(no query or fragment)")
    }
    if let problem = URLLoaderSupport.baseURLProblem(url)
      ?? NCMBConfiguration.plainHTTPProblem(url)
    {
      throw BackendConfigurationError(.invalidSetting, setting: setting, reason: problem)
    }
    return url
  }

  /// Splits a `host:port` setting (`127.0.0.1:9099`, `localhost:9099`, `[::1]:9099`) by
  /// the rule the Firebase adapter applies too (``BackendHTTP/HostAndPort``).
  /// - Returns: the host (without brackets) and the port (1…65535).
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming
  ///   `FIREBASE_AUTH_EMULATOR_HOST`.
  public static func parseHostPort(_ text: String) throws -> (host: String, port: Int) {
    do {
      let parsed = try HostAndPort(parsing: text)
      return (parsed.host, parsed.port)
    } catch {
      throw BackendConfigurationError(
        .invalidSetting,
        setting: settingName(ConfigurationVariable.firebaseEmulatorHost, "firebase.emulatorHost"),
        reason: error.reason)
    }
  }

  static func settingName(_ variable: String, _ key: String) -> String {
    "\(variable) (config key \(key))"
  }

  private static func require(_ value: String?, variable: String, key: String, hint: String)
    throws
  {
    guard let value else {
      throw BackendConfigurationError(
        .missingSetting, setting: settingName(variable, key),
        reason: "not set; set \(variable) or \(key) in the config file to \(hint)")
    }
    guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw BackendConfigurationError(
        .invalidSetting, setting: settingName(variable, key), reason: "is blank")
    }
  }

  private static func keyPath(_ path: [any CodingKey]) -> String {
    path.map(\.stringValue).joined(separator: ".")
  }
}
