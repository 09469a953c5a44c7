import Dispatch
import Foundation
import UserBackendTesting
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// 6. and 7.: the `baas` executable as a whole process. Spawns this same executable
/// (`/proc/self/exe`, else `Bundle.main.executablePath`, else `argv[0]`) with
/// `posix_spawn` through a small helper process (see ``spawn(_:environment:)``), which
/// waits with `wait4` and reads that child's own resource usage (peak resident set size),
/// so neither this process nor earlier children mix in.
enum ProcessBench {
  /// 6. `baas whoami` on the fake backend with a signed-in session in a temporary
  /// `BAAS_HOME`: wall time and peak memory.
  static func startUp(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "startUp", title: "6. Start-up: `baas whoami` (fake backend) as a process")
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-bench-home-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: home) }
    do {
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      var environment = cleanEnvironment()
      environment["BAAS_HOME"] = home.path
      environment["BAAS_BACKEND"] = "fake"
      var signUpEnvironment = environment
      signUpEnvironment["BAAS_PASSWORD"] = "bench-password-1"
      let signUp = try await spawn(
        ["signup", "--email", "whoami@bench.invalid"], environment: signUpEnvironment)
      group.checks.append(
        BenchCheck(
          name: "`baas signup` before timing exits 0", observed: "\(signUp.exitStatus)",
          passed: signUp.exitStatus == 0))
      var times: [Double] = []
      var peaks: [Double] = []
      var statuses: Set<Int32> = []
      for run in 0..<(plan.warmUp + plan.startUpRuns) {
        let result = try await spawn(["whoami"], environment: environment)
        statuses.insert(result.exitStatus)
        guard run >= plan.warmUp else { continue }
        times.append(result.seconds)
        peaks.append(Double(result.maxResidentBytes))
      }
      group.rows.append(BenchRow("wall time", unit: .seconds, samples: times))
      group.rows.append(BenchRow("peak resident memory (ru_maxrss)", unit: .bytes, samples: peaks))
      group.checks.append(
        BenchCheck(
          name: "`baas whoami` exits 0 (signed in)",
          observed: statuses.sorted().map(String.init).joined(separator: ","),
          passed: statuses == [0]))
      group.notes.append("executable: \(executablePath()); fresh BAAS_HOME with one signed-in user")
    } catch {
      group.error = "\(error)"
    }
    return group
  }

  /// 7. `baas verify` as a process: every offline harness (the defaults plus the loopback
  /// HTTP emulators), and the default offline set alone. Wall time and peak memory.
  static func verify(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "verify", title: "7. Offline contract run: `baas verify` as a process")
    let contracts = URL(fileURLWithPath: "Contracts", isDirectory: true)
    guard FileManager.default.fileExists(atPath: contracts.path) else {
      group.error = "no Contracts directory here; run `baas bench` from the package root"
      return group
    }
    let every = ContractHarnesses.offlineDefaultNames + ContractHarnesses.offlineOnRequestNames
    let configurations = [
      ("every offline backend (\(every.count))", every),
      (
        "default offline set (\(ContractHarnesses.offlineDefaultNames.count))",
        ContractHarnesses.offlineDefaultNames
      ),
    ]
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-bench-verify-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: home) }
    do {
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      var environment = cleanEnvironment()
      environment["BAAS_HOME"] = home.path
      var statuses: Set<Int32> = []
      for (label, names) in configurations {
        let arguments = ["verify", "--backends", names.joined(separator: ",")]
        var times: [Double] = []
        var peaks: [Double] = []
        for run in 0..<(min(plan.warmUp, 1) + plan.verifyRuns) {
          let result = try await spawn(arguments, environment: environment)
          statuses.insert(result.exitStatus)
          guard run >= min(plan.warmUp, 1) else { continue }
          times.append(result.seconds)
          peaks.append(Double(result.maxResidentBytes))
        }
        group.rows.append(BenchRow("\(label): wall time", unit: .seconds, samples: times))
        group.rows.append(
          BenchRow("\(label): peak memory (ru_maxrss)", unit: .bytes, samples: peaks))
      }
      group.checks.append(
        BenchCheck(
          name: "`baas verify` exits 0 (no contract failed)",
          observed: statuses.sorted().map(String.init).joined(separator: ","),
          passed: statuses == [0]))
      group.notes.append("backends: \(every.joined(separator: ", ")); contracts: Contracts/")
    } catch {
      group.error = "\(error)"
    }
    return group
  }

  /// The environment without anything that would point `baas` at another backend,
  /// configuration or state directory.
  static func cleanEnvironment() -> [String: String] {
    ProcessInfo.processInfo.environment.filter { key, _ in
      !(key.hasPrefix("BAAS_") || key.hasPrefix("FIREBASE_") || key.hasPrefix("NCMB_"))
    }
  }

  /// This executable's path.
  static func executablePath() -> String {
    if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return resolved
    }
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }

  /// What a child process did.
  struct SpawnResult: Sendable {
    /// The exit status (128 + signal number when killed by a signal).
    let exitStatus: Int32
    /// Wall time from spawn to reaping, in seconds.
    let seconds: Double
    /// The child's peak resident set size in bytes.
    let maxResidentBytes: Int
  }

  /// Why a child could not be run.
  struct SpawnError: Error, CustomStringConvertible {
    /// The failing call and errno.
    let description: String
  }

  /// Runs this executable with `arguments` and `environment` and measures it.
  ///
  /// Linux charges a child's peak memory with the high-water mark of the address space it
  /// was spawned from (`exec` keeps it in `ru_maxrss`), so measuring directly from this
  /// large process would report this process's size. Instead a fresh helper (`baas bench
  /// --spawn-measure ARGS…`, see ``measureChild(_:)``), small at that point, spawns the
  /// command, waits for it and reports its exit status, wall time and peak memory.
  static func spawn(_ arguments: [String], environment: [String: String]) async throws
    -> SpawnResult
  {
    let path = executablePath()
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-bench-spawn-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: report) }
    let helper = try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try spawnAndWait(
              path: path, arguments: ["bench", measureOption] + arguments,
              environment: environment, outputPath: report.path)
          })
      }
    }
    let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
    let fields = text.split(whereSeparator: \.isWhitespace)
    guard helper.exitStatus == 0, fields.count == 3, let status = Int32(fields[0]),
      let seconds = Double(fields[1]), let peak = Int(fields[2])
    else {
      throw SpawnError(description: "the measuring helper failed (exit \(helper.exitStatus))")
    }
    return SpawnResult(exitStatus: status, seconds: seconds, maxResidentBytes: peak)
  }

  /// The hidden `baas bench` option that selects ``measureChild(_:)``.
  static let measureOption = "--spawn-measure"

  /// Helper mode: runs this executable with `arguments` (this process's environment;
  /// stdin, stdout and stderr on /dev/null), waits, and prints `EXIT SECONDS PEAK_BYTES`
  /// on standard output. Returns 0, or 1 when the child could not be run.
  static func measureChild(_ arguments: [String]) -> Int32 {
    do {
      let result = try spawnAndWait(
        path: executablePath(), arguments: arguments,
        environment: ProcessInfo.processInfo.environment, outputPath: "/dev/null")
      FileHandle.standardOutput.write(
        Data("\(result.exitStatus) \(result.seconds) \(result.maxResidentBytes)\n".utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data("baas bench: \(error)\n".utf8))
      return 1
    }
  }

  /// Spawns `path` (stdin and stderr on /dev/null, stdout to `outputPath`), waits with
  /// `wait4` and returns the child's exit status, wall time and `ru_maxrss`.
  private static func spawnAndWait(
    path: String, arguments: [String], environment: [String: String], outputPath: String
  ) throws -> SpawnResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let start = BenchClock.now()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw SpawnError(description: "posix_spawn failed: \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else {
        throw SpawnError(description: "wait4 failed: \(String(cString: strerror(errno)))")
      }
    }
    let seconds = BenchClock.seconds(since: start)
    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    // Linux reports ru_maxrss in KiB (macOS in bytes).
    #if os(Linux)
      let peak = Int(usage.ru_maxrss) * 1024
    #else
      let peak = Int(usage.ru_maxrss)
    #endif
    return SpawnResult(exitStatus: exitStatus, seconds: seconds, maxResidentBytes: peak)
  }
}
