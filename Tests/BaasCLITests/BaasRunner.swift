import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one `baas` run produced.
struct BaasResult: Sendable {
  var status: Int32
  var standardOutput: String
  var standardError: String

  /// Both streams, for "never printed" checks.
  var allOutput: String { standardOutput + standardError }

  /// Standard output parsed as one JSON object.
  func json() throws -> [String: Any] {
    let data = Data(standardOutput.utf8)
    let object = try JSONSerialization.jsonObject(with: data)
    return try #require(object as? [String: Any], "not a JSON object: \(standardOutput)")
  }
}

/// Runs the built `baas` executable in a private state directory (a fresh `BAAS_HOME`
/// per instance), with a minimal environment so the tests are hermetic.
struct Baas: Sendable {
  /// The state directory (`BAAS_HOME`) of this instance.
  let home: URL
  /// Extra environment variables for every run.
  var environment: [String: String] = [:]

  init() throws {
    home = FileManager.default.temporaryDirectory
      .appendingPathComponent("BaasCLITests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  /// Removes the state directory.
  func cleanUp() { try? FileManager.default.removeItem(at: home) }

  /// The `baas` executable: `BAAS_EXECUTABLE`, else next to the test bundle, else
  /// `.build/debug/baas` relative to this source file.
  static let executable: URL? = {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["BAAS_EXECUTABLE"] {
      return URL(fileURLWithPath: path)
    }
    var candidates: [URL] = []
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(directory.appendingPathComponent("baas"))
      directory = directory.deletingLastPathComponent()
    }
    if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
      candidates.append(bundle.appendingPathComponent("baas"))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/baas"))
    return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
  }()

  /// Runs `baas arguments…` with `input` on standard input, in `directory` (default: the
  /// test process's working directory); kills it after `timeout` seconds (then the status
  /// is the signal's).
  /// The sanitizer settings of this test process (`ASAN_OPTIONS`, `TSAN_OPTIONS`, …), passed
  /// on to every `baas` it starts: under `scripts/sanitize` the child is a sanitized build
  /// too and must obey the same options (no leak checks at exit, the suppressions).
  static let sanitizerOptions: [String: String] = ProcessInfo.processInfo.environment.filter {
    ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
  }

  func run(
    _ arguments: [String], environment extra: [String: String] = [:], input: String? = nil,
    in directory: URL? = nil, timeout: TimeInterval = 60
  ) async throws -> BaasResult {
    let executable = try #require(Baas.executable, "the baas executable was not found")
    var environment = [
      "BAAS_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin",
      "LANG": "C.UTF-8",
    ]
    environment.merge(Self.sanitizerOptions) { _, passed in passed }
    for (key, value) in self.environment { environment[key] = value }
    for (key, value) in extra { environment[key] = value }
    return try await Self.launch(
      executable, arguments, environment: environment, input: input, directory: directory,
      timeout: timeout)
  }

  /// Starts a process and collects its output with a bounded wait.
  static func launch(
    _ executable: URL, _ arguments: [String], environment: [String: String], input: String?,
    directory: URL? = nil, timeout: TimeInterval
  ) async throws -> BaasResult {
    _ = ignoreBrokenPipes
    let process = Process()
    process.executableURL = executable
    if let directory { process.currentDirectoryURL = directory }
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    let exit = ProcessExit(process)
    try process.run()
    async let outData = offPool { output.fileHandleForReading.readDataToEndOfFile() }
    async let errData = offPool { error.fileHandleForReading.readDataToEndOfFile() }
    // A large input fills the pipe until the child reads it: write it off the pool too.
    let inputData = input.map { Data($0.utf8) }
    await offPool {
      // A child that exits without reading (a usage error) closes the pipe: the write
      // fails with EPIPE, which is fine; `write(_:)` would trap on it.
      if let inputData { try? standardInput.fileHandleForWriting.write(contentsOf: inputData) }
      try? standardInput.fileHandleForWriting.close()
    }
    let finished = await exit.wait(timeout: timeout, killing: process.processIdentifier)
    let (out, err) = await (outData, errData)
    #expect(finished, "baas \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
    return BaasResult(
      status: process.terminationStatus,
      standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }
}

/// SIGPIPE ignored in the test process, once: writing the input of a child that has
/// already exited would otherwise kill the whole test run (seen once, around the
/// `baas bench` usage tests, whose child exits before reading its input).
private let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// A unique email and a password for one test.
func uniqueAccount() -> (email: String, password: String) {
  let tag = UUID().uuidString.prefix(8).lowercased()
  return ("user-\(tag)@example.com", "pw-\(tag)-Secret!")
}

/// Runs a blocking call (a pipe or terminal read) on a thread of its own rather than on the
/// cooperative pool, which has one thread per core: blocking it can starve every other
/// test's tasks, timeouts included. Not on Dispatch's global queues either: their worker
/// pool is small too, and Foundation delivers process termination through Dispatch.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}
