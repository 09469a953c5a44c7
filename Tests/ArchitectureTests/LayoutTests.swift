import Foundation
import Testing

@Suite("Repository layout", .timeLimit(.minutes(1)))
struct LayoutTests {
  static func folders(_ parent: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: repositoryRoot.appendingPathComponent(parent).path
    ).filter { !$0.hasPrefix(".") }.sorted()
  }

  static let architecture: String = {
    let url = repositoryRoot.appendingPathComponent("docs/ARCHITECTURE.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  @Test(
    "docs/ARCHITECTURE.md names every module and test target folder",
    arguments: ["Sources", "Tests"])
  func everyFolderIsDocumented(parent: String) throws {
    #expect(!Self.architecture.isEmpty, "docs/ARCHITECTURE.md is missing")
    let missing = try Self.folders(parent).filter { !Self.architecture.contains("\($0)/") }
    #expect(missing == [], "not described in docs/ARCHITECTURE.md: \(missing)")
  }

  @Test("docs/ARCHITECTURE.md names no folder that does not exist")
  func noStaleFolders() throws {
    let existing = Set(try Self.folders("Sources") + Self.folders("Tests"))
    let layout = Self.architecture.components(separatedBy: "```")
    #expect(layout.count >= 3, "docs/ARCHITECTURE.md has no layout block")
    let named = layout.count >= 3 ? layout[1] : ""
    var stale: [String] = []
    for line in named.split(separator: "\n") {
      let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""
      guard word.hasSuffix("/"), word.count > 1 else { continue }
      let name = String(word.dropLast())
      let topLevel = ["Sources", "Tests", "Contracts", "Recordings", "docs", "scripts", "fuzz"]
      if !topLevel.contains(name), !existing.contains(name) { stale.append(name) }
    }
    #expect(stale == [], "docs/ARCHITECTURE.md describes folders that do not exist: \(stale)")
  }

  /// The repository explains itself: no file cites a design or reference file that is
  /// not in it.
  @Test("no source, test or document cites a file outside the repository")
  func noOutsideCitations() throws {
    // Written in pieces so that this file does not match itself.
    let parts = [#"\.\./shared"#, "shared" + "/reference", #"\b(DESIGN|INTERFACES)\.md"#]
    let pattern = try NSRegularExpression(
      pattern: (parts + [#"(?<![\w/])reference/[a-z-]+\.md"#]).joined(separator: "|"))
    var offenders: [String] = []
    for top in ["Sources", "Tests", "docs", "Contracts", "Recordings", "scripts"] {
      let folder = repositoryRoot.appendingPathComponent(top)
      guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
      for case let file as String in files
      where [".swift", ".md", ".json", ".sh"].contains(where: file.hasSuffix) || top == "scripts" {
        let url = folder.appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        let range = NSRange(text.startIndex..., in: text)
        if pattern.firstMatch(in: text, range: range) != nil { offenders.append("\(top)/\(file)") }
      }
    }
    for file in ["README.md", "CONTRIBUTING.md"] {
      let text =
        (try? String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8))
        ?? ""
      if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
        offenders.append(file)
      }
    }
    #expect(offenders == [], "these cite files outside the repository: \(offenders)")
  }

  /// Shared state is guarded by `LockedValue`, never by `Synchronization.Mutex`, whose
  /// futex locking ThreadSanitizer cannot see (every locked access would be reported as a
  /// race and `scripts/sanitize thread` could not run; docs/robustness.md).
  @Test("no source or test locks with Synchronization.Mutex")
  func noMutex() throws {
    let pattern = try NSRegularExpression(pattern: "\\b" + "Mutex" + #"\s*[<(]"#)
    var offenders: [String] = []
    for top in ["Sources", "Tests"] {
      let folder = repositoryRoot.appendingPathComponent(top)
      guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let url = folder.appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
          offenders.append("\(top)/\(file)")
        }
      }
    }
    #expect(offenders == [], "these use Mutex instead of LockedValue: \(offenders)")
  }
}
