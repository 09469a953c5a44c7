// baas: the UserBackendKit command line. See `baas --help` and README.md.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses the arguments, runs the command and returns the exit status.
func runBaas(_ arguments: [String], environment: [String: String]) async -> ExitStatus {
  let global: GlobalArguments
  do {
    global = try GlobalArguments.parse(arguments)
  } catch let error as UsageError {
    Console.error("baas: \(error.message)\n\n\(Commands.usage)")
    return .usage
  } catch {
    return .usage
  }
  guard let name = global.command else {
    if global.help {
      Console.out(Commands.usage)
      return .success
    }
    Console.error(Commands.usage)
    return .usage
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
    backendOption: global.backend, configOption: global.config, environment: environment)
  do {
    let options = try ParsedOptions.parse(
      Array(([name] + global.rest).dropFirst(used)), spec: command.spec, command: command.name)
    if options.help || global.help {
      Console.out(command.helpText)
      return .success
    }
    return try await command.run(options, context)
  } catch let error as UsageError {
    Console.error("baas \(command.name): \(error.message)\nusage: \(command.usageLine)")
    Console.error("Run `baas \(command.name) --help` for details.")
    return .usage
  } catch {
    return context.fail(error, json: false)
  }
}

let status = await runBaas(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status.rawValue)
