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

  /// The resolved configuration (file, environment, `--backend`).
  /// - Throws: `BackendConfigurationError`.
  func configuration(backend override: String? = nil) throws -> BackendConfiguration {
    try BackendConfiguration.resolve(
      environment: environment, configFile: configOption, backend: override ?? backendOption)
  }

  /// Applies the command's own `--backend`/`--config` (allowed after the command name).
  func merging(_ options: ParsedOptions) -> Context {
    var copy = self
    if let backend = options.value("backend") { copy.backendOption = backend }
    if let config = options.value("config") { copy.configOption = config }
    return copy
  }
}

/// Runs an operation and reports it: `--json` prints one object on standard output,
/// otherwise `success` prints human lines; a failure prints the error (as JSON, or on
/// standard error with a hint) and returns exit status 1 (2 for configuration errors).
func report(
  json: Bool, backend: String?, _ operation: () async throws -> User?,
  success: (User?) -> [String]
) async -> ExitStatus {
  do {
    let user = try await operation()
    if json {
      Console.out(JSONOutput.user(user))
    } else {
      for line in success(user) { Console.out(line) }
    }
    return .success
  } catch {
    return reportFailure(error, json: json, backend: backend)
  }
}

/// Prints `error` (JSON on standard output, or human lines on standard error) and returns
/// its exit status: 2 for configuration errors, 1 otherwise.
func reportFailure(_ error: any Error, json: Bool, backend: String?) -> ExitStatus {
  let portable = portableError(error)
  if json {
    Console.out(JSONOutput.error(portable))
  } else {
    // A configuration error already says which setting to fix; backend errors get a hint.
    let withHint = !(error is BackendConfigurationError)
    for line in HumanOutput.errorLines(portable, backend: backend, hint: withHint) {
      Console.error(line)
    }
  }
  return error is BackendConfigurationError ? .usage : .failure
}
