import Foundation
import Testing

/// The repository root (this file is Tests/ArchitectureTests/ArchitectureTests.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs `swift package dump-package` with its own scratch directory (so it never waits for
/// the build lock that `swift test` holds), waiting for it without blocking a thread.
func dumpPackage() async throws -> Data {
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("baas-dump-\(UUID().uuidString)")
  let output = scratch.appendingPathExtension("json")
  defer {
    try? FileManager.default.removeItem(at: scratch)
    try? FileManager.default.removeItem(at: output)
  }
  _ = FileManager.default.createFile(atPath: output.path, contents: nil)
  let handle = try FileHandle(forWritingTo: output)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "swift", "package", "--package-path", repositoryRoot.path, "--scratch-path", scratch.path,
    "dump-package",
  ]
  process.standardOutput = handle
  process.standardError = FileHandle.nullDevice
  let status: Int32 = try await withCheckedThrowingContinuation { continuation in
    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
    do { try process.run() } catch {
      process.terminationHandler = nil
      continuation.resume(throwing: error)
    }
  }
  try handle.close()
  #expect(status == 0, "swift package dump-package exited \(status)")
  return try Data(contentsOf: output)
}

/// One dump for the whole run: every test that needs the graph awaits the same task.
let packageDump = Task { try await dumpPackage() }

/// The `import` edges of every target's sources, limited to modules of this package.
func importGraph(declared: ModuleGraph) throws -> ModuleGraph {
  var targets = declared.targets
  for (name, target) in declared.targets where target.kind != "system" {
    let folder = repositoryRoot.appendingPathComponent(target.kind == "test" ? "Tests" : "Sources")
      .appendingPathComponent(name)
    guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
          words[..<index].allSatisfy({ $0.hasPrefix("@") })
        else { continue }
        let module = String(words[index + 1])
        if declared.targets[module] != nil, module != name {
          targets[name]?.dependencies.insert(module)
        }
      }
    }
  }
  return ModuleGraph(targets: targets)
}

@Suite("Module dependency rules", .timeLimit(.minutes(2)))
struct DependencyRuleTests {
  @Test("the declared targets and the imports in their sources follow every rule")
  func realGraphFollowsTheRules() async throws {
    let declared = try ModuleGraph(dumpPackageJSON: try await packageDump.value)
    #expect(declared.targets["UserBackendKit"] != nil, "dump-package listed no targets")
    #expect(DependencyRules.violations(in: declared) == [])
    #expect(DependencyRules.violations(in: try importGraph(declared: declared)) == [])
  }

  /// Each forbidden edge, added by hand to the real graph, is reported.
  @Test(
    "a forbidden edge added by hand is reported",
    arguments: [
      ("FirebaseUserBackend", "NCMBUserBackend", "adapter FirebaseUserBackend depends on adapter"),
      ("FakeUserBackend", "FirebaseUserBackend", "adapter FakeUserBackend depends on adapter"),
      ("UserBackends", "BackendEmulator", "(linked by apps) depends on test tooling"),
      ("UserBackends", "UserBackendTesting", "(linked by apps) depends on test tooling"),
      ("BackendHTTP", "UserBackendKit", "BackendHTTP must be a leaf"),
      ("UserBackendKit", "BackendHTTP", "UserBackendKit (the port) depends on"),
      ("BackendEmulator", "NCMBUserBackend", "BackendEmulator depends on client adapter"),
      ("HTTPReplay", "baas", "depends on executable baas"),
      ("FirebaseTokenVerification", "FirebaseUserBackend", "only the port and BackendHTTP"),
      ("FirebaseTokenVerification", "HTTPReplay", "(linked by apps) depends on test tooling"),
    ])
  func forbiddenEdge(from: String, to: String, message: String) async throws {
    let declared = try ModuleGraph(dumpPackageJSON: try await packageDump.value)
    let broken = declared.adding(from, dependsOn: to)
    let violations = DependencyRules.violations(in: broken)
    #expect(violations.contains { $0.contains(message) }, "\(violations)")
  }
}
