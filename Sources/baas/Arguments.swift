import UserBackendKit

/// A command-line mistake: exit status 2 and the command's usage on standard error.
struct UsageError: Error, CustomStringConvertible {
  /// What is wrong, e.g. `"unknown option --emial"`.
  var message: String
  /// The command whose usage to show (`nil`: the top-level usage).
  var command: String?

  init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  var description: String { message }
}

/// The options a command accepts.
struct OptionSpec {
  /// Options that take a value (`--email E`, `--email=E`), without the dashes.
  var valued: Set<String> = []
  /// Options without a value (`--json`), without the dashes.
  var flags: Set<String> = []
  /// How many positional arguments are allowed.
  var positionals: ClosedRange<Int> = 0...0

  /// Every command also accepts the global options after its name.
  static let globalValued: Set<String> = ["backend", "config"]
  /// Global flags, accepted after the command name too.
  static let globalFlags: Set<String> = ["verbose"]
}

/// Parsed options of one command: values, flags and positional arguments.
struct ParsedOptions {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []
  /// `--help` or `-h` was given.
  var help = false

  func value(_ name: String) -> String? { values[name] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// Parses `arguments` against `spec`; `--` ends option parsing.
  /// - Throws: ``UsageError`` for an unknown option, a missing value, a repeated option
  ///   or a wrong number of positional arguments.
  static func parse(_ arguments: [String], spec: OptionSpec, command: String) throws
    -> ParsedOptions
  {
    var parsed = ParsedOptions()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        guard argument != RawInput.undecodable else {
          throw UsageError(RawInput.argumentProblem, command: command)
        }
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.help = true
        continue
      }
      guard argument.hasPrefix("--") else {
        throw UsageError("unknown option \(argument)", command: command)
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let (before, after) = ScalarSplit.first("=", in: name) {
        inlineValue = after
        name = before
      }
      if spec.valued.contains(name) || OptionSpec.globalValued.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          // A known option in the value's place means the value was left out
          // (`--email --json`); a value that really starts with "--" can be given as
          // `--email=--value`.
          guard index < arguments.count, !isOption(arguments[index], spec: spec) else {
            throw UsageError("--\(name) needs a value", command: command)
          }
          value = arguments[index]
          index += 1
        }
        if let problem = RawInput.problem(option: "--\(name)", value: value) {
          throw UsageError(problem, command: command)
        }
        guard parsed.values[name] == nil else {
          throw UsageError("--\(name) is given twice", command: command)
        }
        parsed.values[name] = value
      } else if spec.flags.contains(name) || OptionSpec.globalFlags.contains(name) {
        guard inlineValue == nil else {
          throw UsageError("--\(name) takes no value", command: command)
        }
        parsed.flags.insert(name)
      } else if name == "password" {
        throw UsageError(
          "the password is never an argument: set BAAS_PASSWORD or use --password-stdin",
          command: command)
      } else {
        throw UsageError("unknown option --\(name)", command: command)
      }
    }
    if !parsed.help && !spec.positionals.contains(parsed.positionals.count) {
      // The arguments themselves are not echoed: one could be a mistyped password.
      throw UsageError(
        "expected \(expectedCount(spec.positionals)), got \(parsed.positionals.count)",
        command: command)
    }
    return parsed
  }

  /// `true` when `argument` names an option of `spec`, a global option or `--help`.
  private static func isOption(_ argument: String, spec: OptionSpec) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    if argument == "--help" || argument == "-h" || argument == "--" { return true }
    let name = String(argument.drop(while: { $0 == "-" }).prefix(while: { $0 != "=" }))
    return spec.valued.contains(name) || spec.flags.contains(name)
      || OptionSpec.globalValued.contains(name) || OptionSpec.globalFlags.contains(name)
      || name == "password"
  }
}

/// `"no arguments"`, `"1 argument"`, `"2 arguments"`, `"1 to 2 arguments"`.
func expectedCount(_ range: ClosedRange<Int>) -> String {
  if range.upperBound == 0 { return "no arguments" }
  let noun = range.upperBound == 1 ? "argument" : "arguments"
  if range.lowerBound == range.upperBound { return "\(range.upperBound) \(noun)" }
  return "\(range.lowerBound) to \(range.upperBound) \(noun)"
}

/// The global options before the command name, and the rest.
struct GlobalArguments {
  var backend: String?
  var config: String?
  /// `--verbose`: one line per HTTP exchange on standard error.
  var verbose = false
  var help = false
  var command: String?
  var rest: [String] = []

  /// Splits `arguments` (without the program name) at the first non-option.
  /// - Throws: ``UsageError`` for an unknown global option, a missing value or an option
  ///   given twice.
  static func parse(_ arguments: [String]) throws -> GlobalArguments {
    var result = GlobalArguments()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      guard argument != RawInput.undecodable else { throw UsageError(RawInput.argumentProblem) }
      if !argument.hasPrefix("-") {
        result.command = argument
        result.rest = Array(arguments[(index + 1)...])
        return result
      }
      index += 1
      if argument == "--help" || argument == "-h" {
        result.help = true
        continue
      }
      if argument == "--verbose" {
        result.verbose = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let (before, after) = ScalarSplit.first("=", in: argument) {
        name = before
        inlineValue = after
      }
      guard name == "--backend" || name == "--config" else {
        throw UsageError("unknown option \(name) (global options: --backend, --config, --verbose)")
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else { throw UsageError("\(name) needs a value") }
        value = arguments[index]
        index += 1
      }
      if let problem = RawInput.problem(option: name, value: value) {
        throw UsageError(problem)
      }
      // Repeats are refused as for command options: "the last one wins" would let a
      // forgotten `--backend` earlier in a script silently pick another backend.
      guard (name == "--backend" ? result.backend : result.config) == nil else {
        throw UsageError("\(name) is given twice")
      }
      if name == "--backend" { result.backend = value } else { result.config = value }
    }
    return result
  }

  /// Refuses a global option given both before the command name and after it
  /// (`baas --backend fake whoami --backend ncmb`), as a repeated command option is.
  /// - Throws: ``UsageError`` naming the option.
  func checkNotRepeated(in options: ParsedOptions, command: String) throws(UsageError) {
    for (name, value) in [("backend", backend), ("config", config)]
    where value != nil && options.value(name) != nil {
      throw UsageError("--\(name) is given twice (before and after the command)", command: command)
    }
  }
}
