import UserBackends

/// The check of every path a `baas` option or argument names (`emulator --data`, the
/// cassette of `cassette lint` and `cassette import`, `--out`, `--contracts`, `ncmb sign
/// --data @FILE`): the same rule as the path settings (``UserBackends/PathSetting``), as
/// a usage error naming the option.
enum PathOption {
  /// Checks `path`, given as `option` (`"--data"`, `"the cassette"`).
  /// - Throws: ``UsageError`` naming the option, when the path holds a control character.
  static func check(_ path: String?, option: String, command: String) throws(UsageError) {
    guard let path, let problem = PathSetting.problem(path) else { return }
    throw UsageError("\(option) \(problem)", command: command)
  }
}
