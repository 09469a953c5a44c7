// baas: the UserBackendKit command line. See `baas --help` and README.md.
import BaasBench
import Foundation
import UserBackendKit
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses the arguments, runs the command and returns the exit status.
func runBaas(_ arguments: [String], environment: [String: String]) async -> ExitStatus {
  // With --json, a usage error is also one JSON error object on standard output.
  let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
  let global: GlobalArguments
  do {
    global = try GlobalArguments.parse(arguments)
  } catch let error as UsageError {
    return usageFailure("baas: \(error.message)", hint: Commands.helpHint, json: json)
  } catch {
    return .usage
  }
  guard let name = global.command else {
    if global.help {
      Console.out(Commands.usage)
      return .success
    }
    // `baas --backend whoami`: the command was taken as the option's value.
    for (option, value) in [("--backend", global.backend), ("--config", global.config)] {
      if let value, Commands.isCommandWord(value) {
        return usageFailure(
          "baas: missing value for \(option) (\"\(value)\" is a command)",
          hint: Commands.helpHint, json: json)
      }
    }
    if arguments.isEmpty {
      Console.error(Commands.usage)
      return .usage
    }
    return usageFailure("baas: no command", hint: Commands.helpHint, json: json)
  }
  if name == "help" {
    if let (command, _) = Commands.find(global.rest) {
      Console.out(command.helpText)
    } else {
      Console.out(Commands.usage)
    }
    return .success
  }
  guard let (command, used) = Commands.find([name] + global.rest) else {
    let members = Commands.group(name)
    if !members.isEmpty {
      let wanted = global.rest.first
      let list = members.map { "  " + $0.usageLine }.joined(separator: "\n")
      if wanted == "--help" || wanted == "-h" {
        Console.out("usage:\n\(list)")
        return .success
      }
      let problem = wanted == nil ? "\(name) needs a command" : "unknown \(name) command"
      Console.error("baas: \(problem)\n\nusage:\n\(list)")
      return .usage
    }
    // The word is not echoed: it could be a password typed in the wrong place.
    Console.error("baas: unknown command (see the list below)\n\n\(Commands.usage)")
    return .usage
  }
  let context = Context(
    backendOption: global.backend, configOption: global.config, environment: environment,
    verbose: global.verbose)
  do {
    let options = try ParsedOptions.parse(
      Array(([name] + global.rest).dropFirst(used)), spec: command.spec, command: command.name)
    try global.checkNotRepeated(in: options, command: command.name)
    if options.help || global.help {
      Console.out(command.helpText)
      return .success
    }
    return try await command.run(options, context)
  } catch let error as UsageError {
    return usageFailure(
      "baas \(command.name): \(error.message)\nusage: \(command.usageLine)",
      hint: "Run `baas \(command.name) --help` for details.", json: json,
      message: error.message)
  } catch {
    return context.fail(error, json: false)
  }
}

/// Reports a usage error: `text` and `hint` on standard error and, with `--json`, one
/// `{"error":{"code":"invalidInput",...}}` object on standard output. Exit status 2.
func usageFailure(_ text: String, hint: String, json: Bool, message: String? = nil)
  -> ExitStatus
{
  if json {
    let error = UserBackendError(
      .invalidInput(field: "arguments", reason: message ?? text), message: message ?? text)
    Console.json(JSONOutput.error(error))
  }
  Console.error(TerminalText.safe(text, keepingNewlines: true))
  Console.error(hint)
  return .usage
}

// Read as bytes: an argument or variable that is not valid UTF-8 is refused where it is
// used, never silently changed (`CommandLine.arguments` and `ProcessInfo` would replace
// its bytes by U+FFFD).
let arguments = RawInput.arguments()
if arguments.first == "bench" {
  if arguments.contains(where: { $0.contains(RawInput.undecodable) }) {
    Console.error("baas bench: \(RawInput.argumentProblem)")
    exit(ExitStatus.usage.rawValue)
  }
  let output = BenchOutput(
    json: { Console.json($0) }, text: { Console.out(TerminalText.safe($0, keepingNewlines: true)) },
    error: { Console.error(TerminalText.safe($0, keepingNewlines: true)) })
  exit(await BenchCommand.run(arguments: Array(arguments.dropFirst()), output: output))
}
let status = await runBaas(arguments, environment: ProcessEnvironment.current())
exit(status.rawValue)
