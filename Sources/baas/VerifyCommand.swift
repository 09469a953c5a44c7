import Foundation
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// `verify`: runs the contract suite on the offline harnesses.
enum VerifyCommand {
  static let all: [Command] = [verify]

  static let verify = Command(
    name: "verify",
    synopsis: "[--backends LIST] [--contracts DIR] [--recordings DIR] "
      + "[--format text|json|junit|markdown]",
    help: """
      Runs every contract in the contracts directory on each harness and prints a report
      on standard output; on a terminal, one progress line per contract goes to standard
      error. Exit status 0 iff no contract failed and every skip agrees with the pinned
      skip matrix (skips.json in the contracts directory): a skip it does not list, or a
      listed contract that passes, fails the run with a line on standard error. The
      published NCMB signature vectors and the cassettes written from the services'
      documentation (RECORDINGS/documentation/) are checked too, one line each.

      options:
        --backends LIST    comma-separated harnesses, each run once (default: \
      \(ContractHarnesses.offlineDefaultNames.joined(separator: ",")), plus firebase-live \
      and ncmb-live when their credentials are set; known: \
      \(ContractHarnesses.knownNames.joined(separator: ", ")))
        --contracts DIR    the contract files (default: Contracts in the current
                           directory, else in the nearest parent that has one)
        --recordings DIR   the cassettes for replay harnesses (default: Recordings,
                           found the same way)
        --format F         text (default), json, junit or markdown
      """,
    spec: OptionSpec(valued: ["backends", "contracts", "recordings", "format"]),
    run: { options, _ in try await run(options) })

  /// Loads the contracts, runs them on the harnesses and prints the report.
  static func run(_ options: ParsedOptions) async throws -> ExitStatus {
    let formatName = options.value("format") ?? "text"
    guard let format = ReportFormat(rawValue: formatName) else {
      throw UsageError(
        "--format must be text, json, junit or markdown", command: "verify")
    }
    let contractsDirectory = try ProjectDirectories.contracts(
      options.value("contracts"), command: "verify")
    let recordings = ProjectDirectories.resolve(options.value("recordings"), default: "Recordings")
    let harnessOptions = ContractHarnesses.Options(
      recordings: recordings, environment: ProcessEnvironment.current())
    var harnesses = ContractHarnesses.defaults(options: harnessOptions)
    if let names = options.value("backends") {
      do {
        harnesses = try ContractHarnesses.list(names, options: harnessOptions)
      } catch let error as BackendConfigurationError {
        throw UsageError(error.description, command: "verify")
      }
    }
    // firebase-live against production Auth with FIRESTORE_EMULATOR_HOST: say so once.
    for case let live as LiveHarness in harnesses {
      FirestoreTokenWarning.warnOnce(live.configuration)
    }
    let replaying = harnesses.map(\.name).filter { $0.hasSuffix("-replay") }
    if !replaying.isEmpty && !ProjectDirectories.isDirectory(recordings) {
      throw UsageError(
        "no recordings directory at \(recordings.path) (needed by "
          + "\(replaying.joined(separator: ", "))): pass --recordings DIR", command: "verify")
    }
    let loaded: [Contract]
    do {
      loaded = try ContractLoader.load(directory: contractsDirectory)
    } catch {
      // A contract file that cannot be read is a problem with the command's input, like an
      // unknown option: exit 2, naming the file (the loader's error does).
      throw UsageError(
        "cannot load contracts from \(contractsDirectory.path): \(error)", command: "verify")
    }
    let runner = ContractRunner(contracts: loaded, harnesses: harnesses)
    var progress: (@Sendable (ContractResult) -> Void)?
    if Console.standardErrorIsTerminal {
      progress = { result in Console.error(TerminalText.safe(progressLine(result))) }
    }
    let report = await runner.run(progress: progress)
    var rendered = report.render(format)
    // The text summary (`N passed, N failed, N skipped`) is printed last, after the
    // documentation checks, which also go to standard output in text: the last line of the
    // run is its outcome.
    let closing = "\n" + report.summary + "\n"
    let summaryLast = format == .text && rendered.hasSuffix(closing)
    if summaryLast { rendered = String(rendered.dropLast(closing.count + 1)) }
    // Text and Markdown quote servers' messages for people; JSON goes through the one JSON
    // writer (terminal-safe escapes); JUnit XML writes the same scalars as character
    // references (its own escaping passed C1 controls and bidi characters through).
    switch format {
    case .text, .markdown: Console.out(TerminalText.safe(rendered, keepingNewlines: true))
    case .json: Console.json(rendered)
    case .junit: Console.out(TerminalText.xmlSafe(rendered))
    }
    defer { if summaryLast { Console.out("\n" + report.summary) } }
    let violations: [String]
    do {
      violations = try SkipMatrix.load(contractsDirectory: contractsDirectory).violations(report)
    } catch {
      Console.error("baas verify: \(error)")
      return .failure
    }
    for violation in violations { Console.error("baas verify: skip matrix: " + violation) }
    var documented = checkDocumentation(recordings: recordings, format: format)
    if ProjectDirectories.isDirectory(recordings) {
      for result in await DocumentationCassettes.run(contracts: loaded, recordings: recordings) {
        let line = progressLine(result)
        if format == .text { Console.out(line) } else { Console.error(line) }
        if case .failed = result.outcome { documented = false }
      }
    }
    return report.failedCount == 0 && violations.isEmpty && documented ? .success : .failure
  }

  /// Checks the published NCMB signature vectors in `<recordings>/documentation/` (when
  /// the file is there); lists each on standard error (text format: on standard output).
  /// Returns whether all matched.
  static func checkDocumentation(recordings: URL, format: ReportFormat) -> Bool {
    let file = recordings.appendingPathComponent("documentation", isDirectory: true)
      .appendingPathComponent(DocumentedSignatureVectors.fileName)
    guard FileManager.default.fileExists(atPath: file.path) else { return true }
    let results: [(name: String, problem: String?)]
    do {
      results = try DocumentedSignatureVectors.load(file: file).check()
    } catch {
      Console.error("baas verify: cannot read \(file.path): \(error)")
      return false
    }
    for result in results {
      let line =
        (result.problem == nil ? "pass" : "FAIL") + "  documentation  ncmb signature vector \""
        + result.name + "\"" + (result.problem.map { ": " + $0 } ?? "")
      if format == .text { Console.out(line) } else { Console.error(line) }
    }
    return results.allSatisfy { $0.problem == nil }
  }

  /// One progress line for a finished contract.
  static func progressLine(_ result: ContractResult) -> String {
    switch result.outcome {
    case .passed: "pass  \(result.harness)  \(result.contract)"
    case .failed(let failure): "FAIL  \(result.harness)  \(result.contract): \(failure)"
    case .skipped(let reason): "skip  \(result.harness)  \(result.contract) (\(reason))"
    }
  }
}
