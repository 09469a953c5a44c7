#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// This process's environment read as bytes, so a value that is not valid UTF-8 is seen
/// as such rather than silently changed. (`ProcessInfo.processInfo.environment` replaces
/// every bad byte by U+FFFD: two different passwords would read as one, and a `BAAS_HOME`
/// with such a byte would name another directory.)
///
/// A value that is not valid UTF-8 is kept as ``undecodableValue``; whoever reads the
/// variable refuses it, naming the variable (``value(_:in:)``). A variable nobody reads
/// never matters, and a variable whose *name* is not valid UTF-8 is left out (no setting
/// has such a name).
public enum ProcessEnvironment {
  /// Stands for a value that is not valid UTF-8. It holds NUL characters, which no real
  /// environment value can hold, so it never collides with one.
  public static let undecodableValue = "\u{0}(not valid UTF-8)\u{0}"

  /// Decodes `NAME=VALUE` entries as `environ` holds them. The first entry of a name
  /// wins, as for `getenv`; an entry without `=` is skipped.
  /// - Returns: name → value, with ``undecodableValue`` for a value that is not valid
  ///   UTF-8.
  public static func decode(_ entries: [[UInt8]]) -> [String: String] {
    var result: [String: String] = [:]
    for entry in entries {
      guard let equals = entry.firstIndex(of: UInt8(ascii: "=")),
        let name = String(validating: entry[..<equals], as: UTF8.self), !name.isEmpty,
        result[name] == nil
      else { continue }
      result[name] =
        String(validating: entry[(equals + 1)...], as: UTF8.self) ?? undecodableValue
    }
    return result
  }

  /// This process's environment, read from `environ` (see ``decode(_:)``).
  public static func current() -> [String: String] {
    var entries: [[UInt8]] = []
    var pointer = environ
    while let entry = pointer.pointee {
      entries.append(
        Array(UnsafeBufferPointer(start: entry, count: strlen(entry))).map {
          UInt8(bitPattern: $0)
        })
      pointer += 1
    }
    return decode(entries)
  }

  /// The value of `name`, `nil` when unset or empty.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming the variable (never
  ///   the value, which may be a password) when its value is not valid UTF-8.
  public static func value(_ name: String, in environment: [String: String])
    throws(BackendConfigurationError) -> String?
  {
    guard let value = environment[name], !value.isEmpty else { return nil }
    try check(value, variable: name)
    return value
  }

  /// Refuses ``undecodableValue``.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `variable`.
  public static func check(_ value: String, variable: String) throws(BackendConfigurationError) {
    guard value == undecodableValue else { return }
    throw BackendConfigurationError(
      .invalidSetting, setting: variable,
      reason: "is not valid UTF-8; its bytes would be read as other characters (U+FFFD), "
        + "so it is refused rather than changed")
  }
}
