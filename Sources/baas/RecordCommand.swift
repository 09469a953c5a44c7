import Foundation
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// `record` and the cassette commands.
enum RecordingCommands {
  static let all: [Command] = [record] + CassetteCommands.all

  static let record = Command(
    name: "record",
    synopsis:
      "--backend firebase|ncmb [--emulator] [--out DIR] [--contracts DIR] [--only NAMES] [--skip NAMES]",
    help: """
      Runs the contracts against the configured live server (or the local emulator) and
      writes one cassette per passed contract to DIR/<backend>/<contract>.har. Secrets are
      replaced by aliases and a leak scan refuses any cassette that still holds one.
      Contracts that need a controllable clock or an SMS code are skipped.

      Firebase: set FIREBASE_API_KEY (and FIREBASE_PROJECT_ID); with
      FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 it records against `baas emulator`.
      NCMB: set NCMB_APPLICATION_KEY, NCMB_CLIENT_KEY and, for the emulator,
      NCMB_BASE_URL=http://127.0.0.1:9099.

      With --emulator no server or credentials are needed: each contract runs against a
      fresh in-process emulator with a fixed clock and seed, so every contract the backend
      supports is recorded (also the clock and SMS ones) and re-recording rewrites the
      same bytes. This is how Recordings/ is made.

      options:
        --backend B       firebase or ncmb (required)
        --emulator        record against the in-process emulator (provenance emulator)
        --out DIR         the recordings directory (default: Recordings, next to
                          Contracts)
        --contracts DIR   the contract files (default: Contracts in the current
                          directory, else in the nearest parent that has one)
        --only NAMES      comma-separated contract names to record (default: all)
        --skip NAMES      comma-separated contract names not to record (applied after
                          --only)
      Exit status 0 iff no contract failed.
      """,
    spec: OptionSpec(valued: ["out", "contracts", "only", "skip"], flags: ["emulator"]),
    run: { options, context in
      try await run(options, context.merging(options), global: context.backendOption)
    })

  static func run(_ options: ParsedOptions, _ context: Context, global: String?) async throws
    -> ExitStatus
  {
    if let global, let own = options.value("backend"), global.lowercased() != own.lowercased() {
      throw UsageError(
        "--backend is given twice with different backends (before and after record)",
        command: "record")
    }
    guard let backend = context.backendOption?.lowercased(),
      backend == "firebase" || backend == "ncmb"
    else {
      throw UsageError("--backend firebase or --backend ncmb is required", command: "record")
    }
    try PathOption.check(options.value("contracts"), option: "--contracts", command: "record")
    try PathOption.check(options.value("out"), option: "--out", command: "record")
    let directory = try ProjectDirectories.contracts(options.value("contracts"), command: "record")
    let outputDirectory = ProjectDirectories.resolve(options.value("out"), default: "Recordings")
    let harness: any ContractHarness
    let cassetteURL: @Sendable (String) -> URL
    var maxConcurrentRuns = 1
    if options.has("emulator") {
      let recorder = EmulatorRecordingHarness(
        backend: backend == "ncmb" ? .ncmb : .firebase, outputDirectory: outputDirectory)
      (harness, cassetteURL, maxConcurrentRuns) = (recorder, recorder.cassetteURL, 4)
    } else {
      do {
        let configuration = try context.configuration()
        FirestoreTokenWarning.warnOnce(configuration)
        let recorder = try RecordingHarness(
          configuration: configuration, outputDirectory: outputDirectory)
        (harness, cassetteURL) = (recorder, recorder.cassetteURL)
      } catch {
        return reportFailure(error, json: false, backend: backend)
      }
    }
    var contracts: [Contract]
    do {
      contracts = try ContractLoader.load(directory: directory)
    } catch {
      // The error quotes the contract file (keys, operation names): shown escaped.
      Console.error(
        TerminalText.safe("baas record: cannot load contracts from \(directory.path): \(error)"))
      return .failure
    }
    let known = Set(contracts.map(\.name))
    if let only = try contractNames(options.value("only"), known: known) {
      contracts = contracts.filter { only.contains($0.name) }
    }
    if let skip = try contractNames(options.value("skip"), known: known) {
      contracts = contracts.filter { !skip.contains($0.name) }
    }
    // Live: one run at a time (a live service is not a load test). Emulator runs are
    // independent of each other.
    let runner = ContractRunner(
      contracts: contracts, harnesses: [harness], maxConcurrentRuns: maxConcurrentRuns)
    let report = await runner.run { result in
      var line = VerifyCommand.progressLine(result)
      if case .passed = result.outcome {
        line += " -> \(cassetteURL(result.contract).path)"
      }
      Console.error(TerminalText.safe(line))
    }
    Console.out(TerminalText.safe(report.render(.text), keepingNewlines: true))
    return report.failedCount == 0 ? .success : .failure
  }

  /// The comma-separated contract names of `--only` or `--skip`, or `nil` when not given.
  /// - Throws: ``UsageError`` naming every name that is not a contract.
  static func contractNames(_ value: String?, known: Set<String>) throws -> Set<String>? {
    guard let value else { return nil }
    let names = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    let unknown = names.subtracting(known)
    guard unknown.isEmpty else {
      throw UsageError(
        "no such contract: \(unknown.sorted().joined(separator: ", "))", command: "record")
    }
    return names
  }
}
