import Foundation
import Testing

@testable import baas

/// `baas bench` prints through the same terminal-safe writers as every other command: its
/// report quotes file- and environment-supplied text (here the `BAAS_PEERS_PYTHON` path in
/// the peers group's skip reason), which must reach the terminal inert, and `--json` still
/// parses to the same value.
@Suite("baas bench output is terminal-safe", .timeLimit(.minutes(2)))
struct BenchOutputSafetyTests {
  static let hostile = "/nonexistent/py\u{9B}2J\u{202E}th\u{200B}on"

  @Test("--json escapes the skip reason and keeps its value")
  func json() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["bench", "--quick", "--json", "--only", "peers"],
      environment: ["BAAS_PEERS_PYTHON": Self.hostile], timeout: 60)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      !result.standardOutput.unicodeScalars.contains { TerminalText.needsEscape($0) && $0 != "\n" },
      "\(result.standardOutput.debugDescription)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    let reason = try #require(groups.first?["skipped"] as? String)
    #expect(reason.contains(Self.hostile))
  }

  @Test("the text table escapes the skip reason")
  func text() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["bench", "--quick", "--only", "peers"],
      environment: ["BAAS_PEERS_PYTHON": Self.hostile], timeout: 60)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      !result.standardOutput.unicodeScalars.contains { TerminalText.needsEscape($0) && $0 != "\n" },
      "\(result.standardOutput.debugDescription)")
    #expect(result.standardOutput.contains("py\\u{9B}2J\\u{202E}th\\u{200B}on"))
  }
}
