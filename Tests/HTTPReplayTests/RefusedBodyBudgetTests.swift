import Foundation
import Testing

@testable import HTTPReplay

/// A body refused for decoding past the 10 MiB cap was still decoded that far: those bytes
/// count toward the file's 64 MiB, so a file of many such bodies costs at most what one
/// loadable cassette costs, and it is reported once (the first body, and how many more),
/// not once per entry. Work is counted as findings and decoded bytes, never as time.
@Suite("HTTPReplay: refused bodies count toward the file's budget", .timeLimit(.minutes(2)))
struct RefusedBodyBudgetTests {
  static let perBody = 10 << 20
  /// One body that decodes to one byte past the cap.
  static let overCap = HARBuilder.gzipJSON(decodedSize: perBody + 1)

  static func overCapEntries(_ count: Int) -> [HARBuilder.Object] {
    (0..<count).map { _ in
      HARBuilder.entry(
        responseHeaders: HARBuilder.gzipHeaders, content: HARBuilder.gzipContent(overCap))
    }
  }

  @Test("three bodies past the cap: one finding naming the first and the two more")
  func reportedOnce() async throws {
    let data = try HARBuilder.export([HARBuilder.entry()] + Self.overCapEntries(3))
    let findings = try await offPool { CassetteLinter.lint(data: data, file: "bomb.har") }
    let sizeFindings = findings.filter { $0.message.contains("10 MiB") }
    #expect(sizeFindings.count == 1)
    #expect(sizeFindings.first?.location == "log.entries[1].response.content")
    #expect(sizeFindings.first?.message.contains("2 more") == true)
  }

  @Test("bodies refused past the cap spend the file's 64 MiB: seven of them stop the checks")
  func refusedBytesCount() async throws {
    let data = try HARBuilder.export(Self.overCapEntries(7))
    let findings = try await offPool { CassetteLinter.lint(data: data, file: "bomb.har") }
    #expect(findings.count == 1)
    #expect(findings.first?.location == "log.entries[0].response.content")
    #expect(findings.first?.message.contains("64 MiB") == true)
    #expect(findings.first?.message.contains("log.entries[6].response.content") == true)
  }

  @Test("import stops at the first refused body, having decoded no more than the cap")
  func importStopsAtFirst() async throws {
    let data = try HARBuilder.export(Self.overCapEntries(3))
    let message = try await offPool { () -> String? in
      do {
        _ = try HARImporter.importHAR(data: data, secrets: [])
        return nil
      } catch { return "\(error)" }
    }
    #expect(message?.contains("entries[0]") == true)
    #expect(message?.contains("10 MiB") == true)
  }
}
