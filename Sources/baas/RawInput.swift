import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The arguments and environment variables of `baas`, read as bytes: a byte sequence that
/// is not valid UTF-8 is refused where it is used (naming the option or the variable,
/// never showing the value: it may be a password), never silently replaced by U+FFFD
/// (two different passwords would sign in to one account, and a path would change).
///
/// An argument that is not valid UTF-8 reads as ``undecodable``; in `--name=VALUE` only
/// the value does when the name is valid, so the error can name the option. The marker
/// holds NUL characters, which no argument or environment value can hold.
enum RawInput {
  /// Stands for an argument or value that is not valid UTF-8
  /// (``UserBackends/ProcessEnvironment/undecodableValue``).
  static let undecodable = ProcessEnvironment.undecodableValue

  /// Decodes one argument's bytes (see ``RawInput``).
  static func argument(_ bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    if bytes.starts(with: Array("--".utf8)),
      let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
      let name = String(validating: bytes[..<equals], as: UTF8.self)
    {
      return name + "=" + undecodable
    }
    return undecodable
  }

  /// This process's arguments without the program name, read from `CommandLine.unsafeArgv`.
  static func arguments() -> [String] {
    (1..<Int(CommandLine.argc)).compactMap { index in
      guard let pointer = CommandLine.unsafeArgv[index] else { return nil }
      return argument(
        Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map {
          UInt8(bitPattern: $0)
        })
    }
  }

  /// The value of the environment variable `name` (`nil` when unset or empty).
  /// - Throws: ``UsageError`` naming the variable when its value is not valid UTF-8.
  static func variable(_ name: String, in environment: [String: String], command: String)
    throws(UsageError) -> String?
  {
    guard let value = environment[name], !value.isEmpty else { return nil }
    guard value != undecodable else {
      throw UsageError(
        "\(name) is not valid UTF-8 (its value is refused, not changed)", command: command)
    }
    return value
  }

  /// The usage error for an option value that is not valid UTF-8, or `nil`.
  static func problem(option: String, value: String) -> String? {
    value == undecodable ? "\(option) is not valid UTF-8 (its value is refused, not changed)" : nil
  }

  /// The usage error for an argument that is not valid UTF-8.
  static let argumentProblem = "an argument is not valid UTF-8 (it is refused, not changed)"
}
