import Foundation
import UserBackendKit
import HTTPReplay
import UserBackends

/// `cassette lint` and `cassette import`.
enum CassetteCommands {
  static let all: [Command] = [lint, importHAR]

  static let lint = Command(
    name: "cassette lint", synopsis: "DIR|FILE.har",
    help: """
      Checks every cassette (*.har) under DIR, or the one cassette FILE.har: the HAR 1.2
      structure and the _replay block (schema), and a leak scan for generic secret shapes
      (Google API keys, signed JWTs) and for the values of FIREBASE_API_KEY,
      NCMB_APPLICATION_KEY, NCMB_CLIENT_KEY and BAAS_PASSWORD when they are set (raw,
      percent-encoded, JSON-escaped and base64 forms). Prints one line per finding, never
      the secret. Exit status 1 when anything is found.
      """,
    spec: OptionSpec(positionals: 1...1),
    run: { options, context in
      try PathOption.check(options.positionals[0], option: "the cassette", command: "cassette lint")
      let target = URL(fileURLWithPath: options.positionals[0])
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
        throw UsageError("\(target.path) does not exist", command: "cassette lint")
      }
      let secrets = configuredSecrets(context.environment)
      let count: Int
      let findings: [CassetteLinter.Finding]
      if isDirectory.boolValue {
        count = cassetteCount(in: target)
        findings = CassetteLinter.lint(directory: target, secrets: secrets)
      } else {
        let data: Data
        do {
          data = try BoundedFileRead.data(
            contentsOf: target, limit: BoundedFileRead.largeFileLimit)
        } catch let error as BoundedFileRead.TooLarge {
          throw UsageError(error.description, command: "cassette lint")
        } catch let error as BoundedFileRead.NotRegularFile {
          throw UsageError(error.description, command: "cassette lint")
        } catch {
          throw UsageError("cannot read \(target.path)", command: "cassette lint")
        }
        count = 1
        findings = CassetteLinter.lint(data: data, file: target.lastPathComponent, secrets: secrets)
      }
      for finding in findings { Console.out(TerminalText.safe(finding.description)) }
      let files = Set(findings.map(\.file)).count
      Console.out(
        "\(count) cassette\(count == 1 ? "" : "s") checked, \(findings.count) finding"
          + "\(findings.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")")
      return findings.isEmpty ? .success : .failure
    })

  static let importHAR = Command(
    name: "cassette import",
    synopsis: "FILE.har [--backend firebase|ncmb] [--contract NAME] [--out FILE]",
    help: """
      Turns a HAR export (browser dev tools, an HTTP debugger) into a redacted cassette.
      The file is checked like cassette lint first (a HAR without log.entries is
      refused). Bodies are decoded (base64, gzip, deflate; other content codings are
      refused), tokens, keys and passwords become aliases under the backend's redaction
      rules (both rule sets without --backend), cookies are dropped, and the result is
      refused unless it passes cassette lint. With --backend, entries to hosts that are
      not the service's (or a loopback emulator's, or FIREBASE_AUTH_EMULATOR_HOST /
      NCMB_BASE_URL) are left out, with a warning naming them. Writes to --out, else to
      standard output.

      options:
        --backend B       firebase or ncmb: the redaction rules and the _replay backend
        --contract NAME   the contract name recorded in the _replay block
        --out FILE        where to write the cassette (default: standard output)
      """,
    spec: OptionSpec(valued: ["contract", "out"], positionals: 1...1),
    run: { options, context in
      let backend = options.value("backend") ?? context.backendOption
      let rules: RedactionRules
      switch backend {
      case nil: rules = .standard
      case "firebase": rules = .firebaseImport
      case "ncmb": rules = .ncmb
      default:
        throw UsageError("--backend must be firebase or ncmb", command: "cassette import")
      }
      try PathOption.check(
        options.positionals[0], option: "the HAR file", command: "cassette import")
      try PathOption.check(options.value("out"), option: "--out", command: "cassette import")
      let input = URL(fileURLWithPath: options.positionals[0])
      let data: Data
      do {
        data = try BoundedFileRead.data(contentsOf: input, limit: BoundedFileRead.largeFileLimit)
      } catch let error as BoundedFileRead.TooLarge {
        Console.error(TerminalText.safe("baas cassette import: \(error.description)"))
        return .failure
      } catch let error as BoundedFileRead.NotRegularFile {
        Console.error(TerminalText.safe("baas cassette import: \(error.description)"))
        return .failure
      } catch {
        Console.error(TerminalText.safe("baas cassette import: cannot read \(input.path)"))
        return .failure
      }
      let secrets = configuredSecrets(context.environment)
      var foreign: [String: Int] = [:]
      do {
        let cassette = try HARImporter.importHAR(
          data: data, rules: rules, secrets: secrets, backend: backend ?? "imported",
          contract: options.value("contract") ?? input.deletingPathExtension().lastPathComponent,
          allowedHosts: backend.map { serviceHosts($0, context.environment) },
          skipped: { _, host in foreign[host, default: 0] += 1 })
        if let backend, !foreign.isEmpty {
          let list = foreign.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
          // Host names come from the file: shown with control characters neutralised.
          Console.error(
            TerminalText.safe(
              "baas cassette import: warning: left out \(foreign.values.reduce(0, +)) "
                + "entr\(foreign.values.reduce(0, +) == 1 ? "y" : "ies") to hosts that are not "
                + "\(backend)'s: \(list.joined(separator: ", "))"))
        }
        if let output = options.value("out") {
          try cassette.write(to: URL(fileURLWithPath: output), secrets: secrets)
          let count = cassette.entries.count
          Console.error("wrote \(count) interaction\(count == 1 ? "" : "s") to \(output)")
        } else {
          Console.json(String(decoding: try cassette.encoded(), as: UTF8.self))
        }
        return .success
      } catch let error as CassetteError {
        printLines(error.lines, command: "cassette import")
        return .failure
      } catch {
        Console.error(TerminalText.safe("baas cassette import: \(error)"))
        return .failure
      }
    })

  /// `lines` on standard error, the first after `baas COMMAND: `: each escaped on its own
  /// (``TerminalText``), so the message's own line breaks print as breaks while a line
  /// break or escape sequence from the file is shown escaped.
  static func printLines(_ lines: [String], command: String) {
    for (index, line) in lines.enumerated() {
      Console.error(TerminalText.safe(index == 0 ? "baas \(command): \(line)" : line))
    }
  }

  /// The hosts whose traffic belongs to `backend`: the service's API hosts, plus the hosts
  /// of `FIREBASE_AUTH_EMULATOR_HOST` / `NCMB_BASE_URL` when set (loopback hosts are always
  /// accepted by the importer).
  static func serviceHosts(_ backend: String, _ environment: [String: String]) -> Set<String> {
    var hosts = HARImporter.serviceHosts[backend] ?? []
    let configured: String? =
      backend == "firebase"
      ? environment[ConfigurationVariable.firebaseEmulatorHost].map { "http://" + $0 }
      : environment[ConfigurationVariable.ncmbBaseURL]
    if let configured, let host = URL(string: configured)?.host { hosts.insert(host) }
    return hosts
  }

  /// The number of `*.har` files under `directory`.
  static func cassetteCount(in directory: URL) -> Int {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: nil)
    else { return 0 }
    var count = 0
    for case let url as URL in enumerator where url.pathExtension.lowercased() == "har" {
      count += 1
    }
    return count
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
