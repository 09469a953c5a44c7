import Foundation
import Testing

/// The runner survives a child that exits without reading its standard input: the write
/// into the closed pipe fails (EPIPE) instead of SIGPIPE ending the whole test process.
@Suite("baas runner: input a child never reads", .timeLimit(.minutes(1)))
struct UnreadInputTests {
  @Test func aChildThatExitsUnreadDoesNotKillTheRun() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    // Far more than a pipe buffer (64 KiB), so the write is still going when baas exits.
    let input = String(repeating: "x", count: 4 * 1024 * 1024)
    let result = try await baas.run(["no-such-command"], input: input)
    #expect(result.status == 2, "\(result.allOutput)")
  }
}
