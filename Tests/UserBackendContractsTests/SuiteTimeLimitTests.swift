import Foundation
import Testing

/// Every test suite of the package has a time limit, so that a hang (a token-expiry bug
/// that loops forever) fails instead of stalling the run.
@Suite(.timeLimit(.minutes(1))) struct SuiteTimeLimitTests {
  static let testsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()

  static var sources: [URL] {
    let enumerator = FileManager.default.enumerator(
      at: testsDirectory, includingPropertiesForKeys: nil)
    return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
  }

  @Test func everySuiteAttributeHasATimeLimit() throws {
    #expect(Self.sources.count > 50)
    var missing: [String] = []
    for url in Self.sources {
      let lines = try String(contentsOf: url, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map(String.init)
      for (index, line) in lines.enumerated()
      where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
        // The attribute may span lines (a long name): read up to the declaration.
        let declaration =
          lines[index...].prefix(6).firstIndex { Self.typeName($0) != nil } ?? index
        let attribute = lines[index...declaration].joined(separator: " ")
        if !attribute.contains(".timeLimit(") {
          missing.append("\(url.lastPathComponent):\(index + 1)")
        }
      }
    }
    #expect(missing.isEmpty, "suites without .timeLimit: \(missing)")
  }

  /// A type with `@Test` methods but no `@Suite` attribute would get no time limit.
  @Test func everyTypeWithTestsIsASuite() throws {
    var missing: [String] = []
    for url in Self.sources {
      let lines = try String(contentsOf: url, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map(String.init)
      for (index, line) in lines.enumerated() {
        guard let name = Self.typeName(line) else { continue }
        let indent = line.prefix { $0 == " " }
        let end =
          lines[(index + 1)...].firstIndex { $0.hasPrefix(indent + "}") } ?? lines.count
        let body = lines[(index + 1)..<end]
        let attributes = lines[max(0, index - 3)..<index] + [line]
        if body.contains(where: { $0.contains("@Test") })
          && !attributes.contains(where: { $0.contains("@Suite") })
        {
          missing.append("\(url.lastPathComponent): \(name)")
        }
      }
    }
    #expect(missing.isEmpty, "types with tests but no @Suite: \(missing)")
  }

  /// `struct X`, `final class X`, `enum X` at the start of a line (after indentation).
  static func typeName(_ line: String) -> String? {
    let words = line.split(separator: " ")
    for (index, word) in words.enumerated() where ["struct", "class", "enum"].contains(word) {
      let before = words[..<index]
      guard
        before.allSatisfy({ ["final", "private", "fileprivate"].contains($0) || $0.hasPrefix("@") })
      else { return nil }
      return index + 1 < words.count ? String(words[index + 1]) : nil
    }
    return nil
  }
}
