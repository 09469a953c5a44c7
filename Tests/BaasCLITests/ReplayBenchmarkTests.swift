import Testing

@testable import BaasBench

@Suite("Replay matching benchmark", .timeLimit(.minutes(1)))
struct ReplayBenchmarkTests {
  @Test("the benchmark replays the requested number of distinct requests")
  func benchmark() async throws {
    let result = try await ReplayBenchmark.measure(entries: 200, requests: 50)
    #expect(result.entries == 200)
    #expect(result.requests == 50)
  }
}
