import Foundation
import HTTPReplay
import UserBackends

/// `cassette lint` and `cassette import`.
enum CassetteCommands {
  static let all: [Command] = [lint]

  static let lint = Command(
    name: "cassette lint", synopsis: "DIR",
    help: """
      Checks every cassette (*.har) under DIR: it must load as a cassette (HAR 1.2 with a
      _replay block) and the leak scan must find no secret in it: the configured API key,
      application key, client key and BAAS_PASSWORD in raw, percent-encoded, JSON-escaped
      and base64 forms, and generic shapes (Google API keys, signed JWTs).
      Prints one line per cassette; exit status 1 when any cassette has a problem.
      """,
    spec: OptionSpec(positionals: 1...1),
    run: { options, context in
      let directory = URL(fileURLWithPath: options.positionals[0], isDirectory: true)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw UsageError("\(directory.path) is not a directory", command: "cassette lint")
      }
      let files = cassetteFiles(in: directory)
      if files.isEmpty {
        Console.out("no cassettes (*.har) under \(directory.path)")
        return .success
      }
      let secrets = configuredSecrets(context.environment)
      var problems = 0
      for file in files {
        let issues = lintIssues(file, secrets: secrets)
        let relative = String(file.path.dropFirst(directory.path.count)).drop { $0 == "/" }
        if issues.isEmpty {
          Console.out("ok    \(relative)")
        } else {
          problems += 1
          Console.out("FAIL  \(relative)")
          for issue in issues { Console.out("      \(issue)") }
        }
      }
      Console.out("\(files.count) cassettes, \(problems) with problems")
      return problems == 0 ? .success : .failure
    })

  /// The problems of one cassette file: load errors and leak findings (never the secret).
  static func lintIssues(_ file: URL, secrets: [String]) -> [String] {
    guard let data = try? Data(contentsOf: file) else { return ["cannot be read"] }
    var issues: [String] = []
    do {
      _ = try Cassette.load(from: file)
    } catch {
      issues.append("not a valid cassette: \(error)")
    }
    for finding in LeakScanner.scan(data, secrets: secrets) {
      issues.append("leak: \(finding)")
    }
    return issues
  }

  /// The `*.har` files under `directory`, sorted by path.
  static func cassetteFiles(in directory: URL) -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: nil)
    else { return [] }
    var files: [URL] = []
    for case let url as URL in enumerator where url.pathExtension.lowercased() == "har" {
      files.append(url)
    }
    return files.sorted { $0.path < $1.path }
  }

  /// The secrets the environment knows, for leak scans: `FIREBASE_API_KEY`,
  /// `NCMB_APPLICATION_KEY`, `NCMB_CLIENT_KEY`, `BAAS_PASSWORD` (whichever are set).
  static func configuredSecrets(_ environment: [String: String]) -> [String] {
    [
      ConfigurationVariable.firebaseAPIKey, ConfigurationVariable.ncmbApplicationKey,
      ConfigurationVariable.ncmbClientKey, "BAAS_PASSWORD",
    ].compactMap { environment[$0] }.filter { !$0.isEmpty }
  }
}
