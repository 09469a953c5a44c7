import Foundation
import Testing

/// The quick-start scripts end with their summary: `baas verify` (what `scripts/verify`
/// runs) prints `N passed, N failed, N skipped` after the documentation checks, and
/// `scripts/test` ends with one line saying how its three groups went, so a reader (or a
/// CI log's last line) sees the outcome without scrolling.
@Suite("The quick-start scripts end with their summary line", .timeLimit(.minutes(5)))
struct ScriptSummaryLineTests {
  /// The last non-empty line of `text`.
  static func lastLine(_ text: String) -> String {
    text.split(separator: "\n").last.map(String.init) ?? ""
  }

  @Test("baas verify: the summary is the last line, after the documentation checks")
  func verifySummaryIsLast() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("contracts", isDirectory: true)
    let recordings = baas.home.appendingPathComponent("recordings", isDirectory: true)
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Contracts/duplicate-sign-up-rejected.json"),
      to: contracts.appendingPathComponent("duplicate-sign-up-rejected.json"))
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Recordings/documentation"),
      to: recordings.appendingPathComponent("documentation"))
    let result = try await baas.run(
      [
        "verify", "--backends", "fake", "--contracts", contracts.path, "--recordings",
        recordings.path,
      ], timeout: 120)
    #expect(result.standardOutput.contains("documentation"), "\(result.allOutput)")
    let last = Self.lastLine(result.standardOutput)
    #expect(
      last.range(
        of: #"^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$"#, options: .regularExpression)
        != nil, "last line: \(last)")
  }

  @Test("scripts/test: its last line sums up the three groups", arguments: [0, 1])
  func testScriptSummaryIsLast(_ failing: Int) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    // A copy of scripts/test beside a bootstrap that does nothing, with a `swift` on PATH
    // that prints a line and fails the command-line group when asked.
    let root = baas.home.appendingPathComponent("repo", isDirectory: true)
    let scripts = root.appendingPathComponent("scripts", isDirectory: true)
    let bin = baas.home.appendingPathComponent("bin", isDirectory: true)
    for directory in [scripts, bin] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("scripts/test"),
      to: scripts.appendingPathComponent("test"))
    let stubs = [
      (scripts.appendingPathComponent("bootstrap"), "#!/bin/sh\nexit 0\n"),
      (
        bin.appendingPathComponent("swift"),
        "#!/bin/sh\necho \"swift $*\"\n"
          + "case \"$*\" in *BaasCLITests*) [ \"$FAIL_CLI\" = 1 ] && exit 1;; esac\nexit 0\n"
      ),
    ]
    for (file, text) in stubs {
      try Data(text.utf8).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }
    let result = try await Baas.launch(
      URL(fileURLWithPath: "/bin/bash"), [scripts.appendingPathComponent("test").path],
      environment: ["PATH": bin.path + ":/usr/bin:/bin", "FAIL_CLI": String(failing)],
      input: nil, timeout: 60)
    #expect(result.status == Int32(failing), "\(result.allOutput)")
    let last = Self.lastLine(result.standardOutput)
    #expect(last.hasPrefix("scripts/test: "), "last line: \(last)")
    #expect(last.contains(failing == 1 ? "FAILED" : "all passed"), "last line: \(last)")
  }
}
