import BackendHTTP
import Foundation
import UserBackendKit
import UserBackends

/// What every command gets: the global options, the environment and the way to report.
struct Context {
  /// `--backend` (before or after the command name).
  var backendOption: String?
  /// `--config`.
  var configOption: String?
  /// The process environment.
  var environment: [String: String]
  /// `--verbose`: log one line per HTTP exchange on standard error.
  var verbose = false

  /// With `--verbose`, prints each HTTP exchange on standard error as
  /// `baas: http: POST https://host/path?key=<redacted> 200 12ms` (no query value, header
  /// or body is printed); `nil` otherwise.
  var httpLogger: HTTPLogger? {
    verbose ? HTTPLogger { Console.error("baas: http: \($0)") } : nil
  }

  /// The transport for firebase and ncmb: the network, logged with `--verbose`; `nil` (the
  /// factory's default) otherwise.
  var transport: (any HTTPTransport)? { httpLogger?.wrapping(NetworkTransport.standard()) }

  /// The resolved configuration (file, environment, `--backend`).
  /// - Throws: `BackendConfigurationError` (also for a key given twice in the config file).
  func configuration(backend override: String? = nil) throws -> BackendConfiguration {
    try BackendConfiguration.resolve(
      environment: environment, configFile: configOption, backend: override ?? backendOption)
  }

  /// Applies the command's own `--backend`/`--config` (allowed after the command name).
  func merging(_ options: ParsedOptions) -> Context {
    var copy = self
    if let backend = options.value("backend") { copy.backendOption = backend }
    if let config = options.value("config") { copy.configOption = config }
    if options.has("verbose") { copy.verbose = true }
    return copy
  }
}

/// Runs an operation and reports it: `--json` prints one object on standard output,
/// otherwise `success` prints human lines; a failure prints the error (as JSON, or on
/// standard error with a hint) and returns exit status 1 (2 for configuration errors).
func report(
  json: Bool, context: Context, _ operation: () async throws -> User?,
  success: (User?) -> [String]
) async -> ExitStatus {
  await reportResult(
    json: json, context: context, operation, jsonText: JSONOutput.user, lines: success)
}

/// ``report(json:context:_:success:)`` for any result: with `--json`, `jsonText` of the
/// result is printed (one object); otherwise `lines` of it, each made terminal-safe.
func reportResult<Result>(
  json: Bool, context: Context, _ operation: () async throws -> Result,
  jsonText: (Result) -> String, lines: (Result) -> [String]
) async -> ExitStatus {
  do {
    let result = try await operation()
    if json {
      Console.json(jsonText(result))
    } else {
      for line in lines(result) { Console.out(TerminalText.safe(line)) }
    }
    return .success
  } catch {
    return context.fail(error, json: json)
  }
}

extension Context {
  /// The state directory of the configuration, when it resolves.
  var home: String? { (try? configuration().home) ?? nil }

  /// ``reportFailure(_:json:backend:home:)`` with this context's backend and home.
  func fail(_ error: any Error, json: Bool) -> ExitStatus {
    reportFailure(error, json: json, backend: backendName, home: home)
  }
}

/// Prints `error` (JSON on standard output, or human lines on standard error) and returns
/// its exit status: 2 for configuration errors found before contacting a server (a bad
/// setting, an unusable state directory, session file or fake database), 1 otherwise.
///
/// - Parameters:
///   - backend: the backend's name, for hints.
///   - home: the state directory, to name the fake's database in messages.
func reportFailure(_ error: any Error, json: Bool, backend: String?, home: String? = nil)
  -> ExitStatus
{
  let local = localProblem(error, backend: backend, home: home)
  let portable = local?.userBackendError ?? portableError(error)
  if json {
    Console.json(JSONOutput.error(portable))
  } else if let local {
    // A configuration error already says which setting to fix.
    Console.error("baas: error: \(TerminalText.safe(portable.description))")
    if local.kind == .unknownBackend {
      Console.error("hint: run `baas --help` for the backends and the settings")
    }
  } else {
    for line in HumanOutput.errorLines(portable, backend: backend) { Console.error(line) }
  }
  return local != nil ? .usage : .failure
}
