import Foundation

// Where the state lives: the `home` setting (config file or `BAAS_HOME`) resolved to an
// absolute directory, with the defaults `$XDG_STATE_HOME/baas` and `~/.local/state/baas`,
// and the check that it is not a file. Used by `resolve(environment:configFile:backend:)`.
extension BackendConfiguration {
  /// The absolute state directory, and the variable that decided it when it is a default
  /// (`XDG_STATE_HOME`, `HOME`); `nil` when `home` (`BAAS_HOME` or the file's key) did.
  ///
  /// A relative `XDG_STATE_HOME` is ignored, as the XDG Base Directory specification
  /// says ("If an implementation encounters a relative path in any of these variables it
  /// should consider the path invalid and ignore it"): the default under `HOME` applies.
  static func resolvedHome(_ home: String?, environment: [String: String]) throws
    -> (path: String, decidedBy: String?)
  {
    // HOME is checked only where it decides: for `~` and for the last default (an
    // XDG_STATE_HOME that is set decides instead, and a HOME it hides never matters).
    if let home, !home.isEmpty {
      if home == "~" || home.hasPrefix("~/"),
        let userHome = try ProcessEnvironment.value("HOME", in: environment)
      {
        try PathSetting.check(userHome, setting: "HOME")
      }
      let expanded = try expandingTilde(home, environment: environment)
      if expanded.hasPrefix("/") { return (expanded, nil) }
      return (URL(fileURLWithPath: expanded).standardizedFileURL.path, nil)
    }
    if let state = environment["XDG_STATE_HOME"],
      state.hasPrefix("/") || state == ProcessEnvironment.undecodableValue
    {
      try ProcessEnvironment.check(state, variable: "XDG_STATE_HOME")
      try PathSetting.check(state, setting: "XDG_STATE_HOME")
      return (URL(fileURLWithPath: state).appendingPathComponent("baas").path, "XDG_STATE_HOME")
    }
    if let userHome = try ProcessEnvironment.value("HOME", in: environment) {
      try PathSetting.check(userHome, setting: "HOME")
      return (
        URL(fileURLWithPath: userHome).appendingPathComponent(".local/state/baas").path, "HOME"
      )
    }
    throw BackendConfigurationError(
      .missingSetting, setting: settingName(ConfigurationVariable.home, "home"),
      reason: "no state directory: set BAAS_HOME (neither XDG_STATE_HOME nor HOME is set)")
  }

  /// Refuses a state directory that is an existing regular file, or lies below one (any
  /// parent that exists and is not a directory): every read of the session would fail,
  /// and "not signed in" would hide why.
  ///
  /// - Parameter decidedBy: the setting that chose `home`: `BAAS_HOME`, the config file's
  ///   `home` key, or for a default `XDG_STATE_HOME` or `HOME`. The error names it and
  ///   says how to fix it, so the message never blames a `BAAS_HOME` that is not set.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `decidedBy`.
  static func checkStateDirectory(_ home: String, decidedBy: String) throws {
    var url = URL(fileURLWithPath: home).standardizedFileURL
    while url.path != "/" && !url.path.isEmpty {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else {
          let which = url.path == home ? home : "\(url.path) (in \(home))"
          let fix =
            switch decidedBy {
            case ConfigurationVariable.home: "point BAAS_HOME at a directory"
            case "XDG_STATE_HOME", "HOME":
              "it is the default under \(decidedBy) (BAAS_HOME is not set); remove the file "
                + "or set BAAS_HOME to a directory"
            default: "point the config file's home at a directory"
            }
          let setting =
            decidedBy == "XDG_STATE_HOME" || decidedBy == "HOME"
            ? decidedBy : settingName(ConfigurationVariable.home, "home")
          throw BackendConfigurationError(
            .invalidSetting, setting: setting,
            reason: "the state directory \(which) is not a directory but a file; \(fix)")
        }
        return
      }
      url.deleteLastPathComponent()
    }
  }

  /// Refuses a path setting that starts with `~` but is neither `~` nor `~/…`: only
  /// those two are expanded (to `$HOME`), and `~user/x` or `~x` would otherwise be a
  /// directory literally named `~user` below the working directory or the config file's.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `setting`.
  static func checkTilde(_ path: String, setting: String) throws {
    guard path.hasPrefix("~"), path != "~", !path.hasPrefix("~/") else { return }
    throw BackendConfigurationError(
      .invalidSetting, setting: setting,
      reason: "starts with ~ but only ~ and ~/ are expanded (to HOME); write the whole "
        + "path, or ./~… for a directory named so")
  }

  /// `path` with a leading `~` or `~/` replaced by `HOME`.
  ///
  /// `HOME` must then be set and absolute: an empty `HOME` counts as unset (as every
  /// variable does), and expanding it, or a relative one, would put `~/x` at the root of
  /// the file system (`/x`) or below the working directory.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `HOME`.
  static func expandingTilde(_ path: String, environment: [String: String]) throws
    -> String
  {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    guard let userHome = try ProcessEnvironment.value("HOME", in: environment) else {
      throw BackendConfigurationError(
        .invalidSetting, setting: "HOME",
        reason: "is not set (or empty), and a path setting starts with ~, which means HOME")
    }
    guard userHome.hasPrefix("/") else {
      throw BackendConfigurationError(
        .invalidSetting, setting: "HOME",
        reason: "is not an absolute path, and a path setting starts with ~, which means HOME")
    }
    return userHome + path.dropFirst()
  }
}
