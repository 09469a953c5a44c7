/// The check every path setting passes before it is used: the config file (`--config`,
/// `BAAS_CONFIG`), the state directory (`BAAS_HOME`, the config key `home`,
/// `XDG_STATE_HOME`, `HOME`) and the paths `baas` options name (`emulator --data`,
/// cassette files, `--out`, `--contracts`).
///
/// A path is refused when it is empty (the system would read it as the working directory
/// and report a confusing "is a directory"), and when it holds a control character (`Cc`: U+0000…U+001F,
/// U+007F…U+009F). A NUL cannot be passed to the operating system at all: the C library
/// would cut the path there and use another directory than the one written (a config file
/// `{"home": "/tmp/x/SECRETHOME\u0000x"}` would put the session in `/tmp/x/SECRETHOME`).
/// The other controls are legal in Linux file names but are never meant in a setting (a
/// pasted newline, an escape sequence) and cannot be shown safely in a message, so they
/// are refused too rather than creating a directory nobody can type.
public enum PathSetting {
  /// Why `path` cannot be used, or `nil` when it can.
  /// - Returns: `"is empty…"` (an empty path would name the working directory),
  ///   `"contains the control character U+XXXX …"`, or `nil`.
  public static func problem(_ path: String) -> String? {
    if path.isEmpty { return "is empty: a path is required" }
    guard
      let control = path.unicodeScalars.first(where: {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
      })
    else { return nil }
    let hex = String(control.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    return "contains the control character \(code); a path must not contain one"
      + (control.value == 0 ? " (the system would cut the path at the NUL)" : "")
  }

  /// Checks `path`.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `setting` (a
  ///   `misconfigured` ``UserBackendKit/UserBackendError``).
  public static func check(_ path: String, setting: String) throws {
    if let problem = problem(path) {
      throw BackendConfigurationError(.invalidSetting, setting: setting, reason: problem)
    }
  }
}
