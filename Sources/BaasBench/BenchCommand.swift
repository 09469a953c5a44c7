import Foundation

/// `baas bench [--quick] [--json] [--only LIST]`: measures the adapters, replay matching,
/// single-flight refresh, the emulator, the fake and the command's own start-up, and prints
/// a table (or one JSON object) with medians, spreads and ratios against their targets.
/// Tests never assert on time; this command is where time is measured.
public enum BenchCommand {
  /// The help text.
  public static let help = """
    usage: baas bench [--quick] [--json] [--only LIST]

    Measures performance and prints a table of medians with their spread (p10–p90 and
    the median absolute deviation over repeated runs, after warm-up), plus ratios against
    targets; a missed target is marked MISSED. Everything runs offline on loopback.

      adapter      1. sign-in through the Firebase and NCMB adapters vs. the same request
                      bytes sent directly with the same network transport (target ≤ 1.05)
      replay       2. replay matching cost per request at 1,000 / 10,000 / 100,000
                      cassette entries (target 100,000 / 1,000 ≤ 1.5)
      singleflight 3. 1,000 concurrent idToken() calls on an expired Firebase session:
                      token requests (must be 1) and time vs. one refresh
      throughput   4. emulator sign-ins per second with 1, 8 and 64 keep-alive clients,
                      with p50 / p99 latency
      fake         5. in-process fake: sign-ups and sign-ins per second at 1,000 and
                      100,000 stored users (target growth ≤ 1.5)
      startup      6. `baas whoami` (fake backend) as a process: wall time, peak memory
      verify       7. `baas verify` over the offline backends as a process: wall time
      tokenverify  8. Firebase ID token verification with a warm cache vs. raw OpenSSL
                      RS256 verify of the same bytes (target ≥ 0.8 of raw throughput)
      peers        9. one sign-in per call through our adapters vs. pyrebase4 and the
                      NCMB Python SDK against one emulator, with raw keep-alive floors
                      from Swift and Python (target ours / peer < 1.0); skipped, with
                      the reason, without a Python that has both (BAAS_PEERS_PYTHON, else
                      .build/peers-venv/bin/python from scripts/peers-venv)

    options:
      --quick       fewer and shorter runs (under two minutes on two cores)
      --json        print the figures as one JSON object instead of the table
      --only LIST   comma-separated groups from the list above (default: all)
      --help        this text

    (`--spawn-measure ARGS…` is internal: groups 6 and 7 use it to measure a child process.)

    Progress goes to standard error. Exit status 0 when every group ran (missed targets
    included), 1 when a group could not run, 2 for a usage error.
    """

  /// The groups in order: key and runner.
  static let groups: [(key: String, run: @Sendable (BenchPlan) async -> BenchGroup)] = [
    ("adapter", { await AdapterOverheadBench.run($0) }),
    ("replay", { await ReplayMatchingBench.run($0) }),
    ("singleflight", { await SingleFlightBench.run($0) }),
    ("throughput", { await EmulatorThroughputBench.run($0) }),
    ("fake", { await FakeBackendBench.run($0) }),
    ("startup", { await ProcessBench.startUp($0) }),
    ("verify", { await ProcessBench.verify($0) }),
    ("tokenverify", { await TokenVerifierBench.run($0) }),
    ("peers", { await PeersBench.run($0) }),
  ]

  /// Runs the benchmark with `arguments` (everything after `bench`) and returns the exit
  /// status: 0 done, 1 a group could not run, 2 usage error. The report (the table, or
  /// the JSON object with `--json`), the help and usage errors are printed through
  /// `output`: `baas` hands in its terminal-safe writers, so the report, which quotes
  /// file- and environment-supplied text (the CPU model, a skip reason naming a path),
  /// follows the rule of every other command's output.
  public static func run(arguments: [String], output: BenchOutput) async -> Int32 {
    if arguments.first == ProcessBench.measureOption {
      return ProcessBench.measureChild(Array(arguments.dropFirst()))
    }
    var quick = false
    var json = false
    var only: Set<String>?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--json": json = true
      case "--help", "-h":
        output.text(help)
        return 0
      case "--only":
        guard let list = remaining.popFirst() else {
          return usage("--only needs a comma-separated list of groups", output)
        }
        let names = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let known = Set(groups.map(\.key))
        if let unknown = names.subtracting(known).sorted().first {
          return usage(
            "--only: unknown group \(unknown); known: \(groups.map(\.key).joined(separator: ", "))",
            output)
        }
        only = names
      default:
        return usage("unknown option \(argument)", output)
      }
    }
    let plan = quick ? BenchPlan.quick : BenchPlan.full
    let start = BenchClock.now()
    var results: [BenchGroup] = []
    for (key, body) in groups where only?.contains(key) ?? true {
      progress("bench: \(key)…")
      let groupStart = BenchClock.now()
      let group = await body(plan)
      progress(
        String(format: "bench: %@ done in %.1f s", key, BenchClock.seconds(since: groupStart)))
      results.append(group)
    }
    let report = BenchReport(
      mode: quick ? "quick" : "full", machine: .current(), groups: results,
      totalSeconds: BenchClock.seconds(since: start))
    if json {
      output.json(report.renderJSON())
    } else {
      output.text(report.renderText())
    }
    return results.contains { $0.error != nil } ? 1 : 0
  }

  private static func usage(_ message: String, _ output: BenchOutput) -> Int32 {
    output.error("baas bench: \(message)\nusage: baas bench [--quick] [--json] [--only LIST]")
    return 2
  }

  /// One line of progress on standard error.
  static func progress(_ text: String) {
    write(text, to: .standardError)
  }

  private static func write(_ text: String, to handle: FileHandle) {
    handle.write(Data((text + "\n").utf8))
  }
}

/// Where `baas bench` prints its report, help and usage errors. `baas` passes its
/// terminal-safe writers (`Console.json`, text escaped as every command's output), so one
/// writer serves every JSON output of the tool.
public struct BenchOutput: Sendable {
  /// Prints one JSON text (the `--json` report) on standard output.
  public var json: @Sendable (String) -> Void
  /// Prints text (the table, the help; lines separated by `\n`) on standard output.
  public var text: @Sendable (String) -> Void
  /// Prints a message (a usage error; lines separated by `\n`) on standard error.
  public var error: @Sendable (String) -> Void

  /// Writers for the report, the help and usage errors.
  public init(
    json: @escaping @Sendable (String) -> Void, text: @escaping @Sendable (String) -> Void,
    error: @escaping @Sendable (String) -> Void
  ) {
    self.json = json
    self.text = text
    self.error = error
  }
}

/// How much to measure: repetitions and sizes for `--quick` and for the full run.
struct BenchPlan: Sendable {
  /// Untimed batches before the timed ones.
  var warmUp: Int
  /// Timed batches (the samples of each statistic).
  var runs: Int
  /// Sign-ins per batch for the adapter comparison.
  var adapterBatch: Int
  /// Cassette sizes for replay matching.
  var replaySizes: [Int]
  /// Requests matched per replay batch.
  var replayBatch: Int
  /// Concurrent idToken() callers.
  var singleFlightCallers: Int
  /// Keep-alive client counts for emulator throughput.
  var throughputClients: [Int]
  /// Seconds per throughput run.
  var throughputSeconds: Double
  /// Stored-user counts for the fake.
  var fakeSizes: [Int]
  /// Operations per fake batch.
  var fakeBatch: Int
  /// Timed `baas whoami` processes.
  var startUpRuns: Int
  /// Timed `baas verify` processes.
  var verifyRuns: Int

  /// Under two minutes on two cores.
  static let quick = BenchPlan(
    warmUp: 1, runs: 5, adapterBatch: 50, replaySizes: [1_000, 10_000, 100_000],
    replayBatch: 1_000, singleFlightCallers: 1_000, throughputClients: [1, 8, 64],
    throughputSeconds: 1, fakeSizes: [1_000, 100_000], fakeBatch: 100, startUpRuns: 5,
    verifyRuns: 5)

  /// About ten minutes on two cores.
  static let full = BenchPlan(
    warmUp: 2, runs: 15, adapterBatch: 100, replaySizes: [1_000, 10_000, 100_000],
    replayBatch: 2_000, singleFlightCallers: 1_000, throughputClients: [1, 8, 64],
    throughputSeconds: 5, fakeSizes: [1_000, 100_000], fakeBatch: 200, startUpRuns: 21,
    verifyRuns: 15)
}
