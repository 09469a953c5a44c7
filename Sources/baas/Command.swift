import Foundation

/// One `baas` command: its name (`"signup"`, `"cassette lint"`), usage, options and body.
struct Command: Sendable {
  /// The words that select it: `"whoami"`, `"cassette lint"`.
  let name: String
  /// Arguments after the name, for the usage line.
  let synopsis: String
  /// What it does and what it prints, shown by `--help`.
  let help: String
  /// The options it accepts.
  let spec: OptionSpec
  /// Runs it. Throws ``UsageError`` for bad arguments (exit 2); reports everything else
  /// itself and returns the exit status.
  let run: @Sendable (ParsedOptions, Context) async throws -> ExitStatus

  /// `baas <name> <synopsis>`.
  var usageLine: String { "baas [--backend B] [--config FILE] \(name) \(synopsis)" }

  /// The full `--help` text.
  var helpText: String { "usage: \(usageLine)\n\n\(help)" }
}

/// Every command, in the order the top-level usage lists them.
enum Commands {
  static let all: [Command] =
    AccountCommands.all + AccountManagementCommands.all + DocCommands.all
    + TokenVerifyCommand.all + PhoneCommands.all + VerifyCommand.all
    + EmulatorCommand.all
    + RecordingCommands.all + NCMBCommands.all

  /// The command selected by `words` (the command name and, for groups such as
  /// `cassette`, the sub-command), and the number of words it used.
  static func find(_ words: [String]) -> (Command, Int)? {
    if words.count >= 2, let command = all.first(where: { $0.name == "\(words[0]) \(words[1])" }) {
      return (command, 2)
    }
    if let first = words.first, let command = all.first(where: { $0.name == first }) {
      return (command, 1)
    }
    return nil
  }

  /// The commands of a group (`cassette` → `cassette lint`, `cassette import`).
  static func group(_ name: String) -> [Command] {
    all.filter { $0.name.hasPrefix(name + " ") }
  }

  /// `true` when `word` is the first word of a command (`whoami`, `cassette`).
  static func isCommandWord(_ word: String) -> Bool {
    word == "help" || all.contains { $0.name.split(separator: " ").first.map(String.init) == word }
  }

  /// The one-line pointer to the full usage.
  static let helpHint =
    "usage: baas [--backend B] [--config FILE] COMMAND [OPTIONS]; run `baas --help` for more."

  /// The top-level usage text.
  static var usage: String {
    var lines = [
      "usage: baas [--backend fake|firebase|ncmb] [--config FILE] [--verbose] COMMAND [OPTIONS]",
      "",
      "Signs up, signs in, shows and manages the signed-in user and their document, prints",
      "tokens, runs the contract suite, records and checks cassettes, and serves the local",
      "emulator.",
      "",
      "commands:",
    ]
    let width = (all.map(\.name.count).max() ?? 0) + 2
    for command in all {
      lines.append(
        "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0)
          + command.synopsis)
    }
    // `bench` is dispatched before the others (Sources/baas/Bench) and has its own --help.
    lines.append(
      "  " + "bench".padding(toLength: width, withPad: " ", startingAt: 0)
        + "[--quick] [--json] [--only LIST]")
    lines += [
      "",
      "global options:",
      "  --backend fake|firebase|ncmb   overrides BAAS_BACKEND (default fake)",
      "  --config FILE                  JSON configuration (else BAAS_CONFIG)",
      "  --verbose                      one line per HTTP exchange on standard error: method,",
      "                                 URL (query values redacted), status, milliseconds",
      "",
      "environment: BAAS_BACKEND, BAAS_HOME, BAAS_CONFIG, BAAS_PASSWORD, FIREBASE_API_KEY,",
      "  FIREBASE_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST, NCMB_APPLICATION_KEY,",
      "  NCMB_CLIENT_KEY, NCMB_BASE_URL",
      "",
      "exit status: 0 success, 1 the operation failed (also a server-reported",
      "  misconfiguration), 2 a usage or local configuration error found before contacting",
      "  a server.",
      "Run `baas COMMAND --help` for a command's options.",
    ]
    return lines.joined(separator: "\n")
  }
}
