import Foundation

// Where the state lives: the `home` setting (config file or `BAAS_HOME`) resolved to an
// absolute directory, with the defaults `$XDG_STATE_HOME/baas` and `~/.local/state/baas`,
// and the check that it is not a file. Used by `resolve(environment:configFile:backend:)`.
extension BackendConfiguration {
  static func resolvedHome(_ home: String?, environment: [String: String]) throws
    -> String
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
      if expanded.hasPrefix("/") { return expanded }
      return URL(fileURLWithPath: expanded).standardizedFileURL.path
    }
    if let state = environment["XDG_STATE_HOME"],
      state.hasPrefix("/") || state == ProcessEnvironment.undecodableValue
    {
      try ProcessEnvironment.check(state, variable: "XDG_STATE_HOME")
      try PathSetting.check(state, setting: "XDG_STATE_HOME")
      return URL(fileURLWithPath: state).appendingPathComponent("baas").path
    }
    if let userHome = try ProcessEnvironment.value("HOME", in: environment) {
      try PathSetting.check(userHome, setting: "HOME")
      return URL(fileURLWithPath: userHome).appendingPathComponent(".local/state/baas").path
    }
    throw BackendConfigurationError(
      .missingSetting, setting: settingName(ConfigurationVariable.home, "home"),
      reason: "no state directory: set BAAS_HOME (neither XDG_STATE_HOME nor HOME is set)")
  }

  /// Refuses a state directory that is an existing regular file, or lies below one: every
  /// read of the session would fail, and "not signed in" would hide why.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `BAAS_HOME`.
  static func checkStateDirectory(_ home: String) throws {
    var url = URL(fileURLWithPath: home).standardizedFileURL
    while url.path != "/" && !url.path.isEmpty {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else {
          let which = url.path == home ? home : "\(url.path) (in \(home))"
          throw BackendConfigurationError(
            .invalidSetting, setting: settingName(ConfigurationVariable.home, "home"),
            reason: "the state directory \(which) is not a directory but a file; point "
              + "BAAS_HOME at a directory")
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

  static func expandingTilde(_ path: String, environment: [String: String]) throws
    -> String
  {
    guard path == "~" || path.hasPrefix("~/"), let userHome = environment["HOME"] else {
      return path
    }
    try ProcessEnvironment.check(userHome, variable: "HOME")
    return userHome + path.dropFirst()
  }
}
