import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import baas

/// Issue 16 item 6 through the CLI: outside numbers and sizes end in clear errors.
@Suite("baas: bounded password input and contract numbers", .timeLimit(.minutes(2)))
struct UntrustedInputBoundsTests {
  @Test("--password-stdin refuses a first line longer than the limit")
  func longPasswordLine() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["signup", "--email", "long@example.com", "--password-stdin"],
      input: String(repeating: "a", count: PasswordInput.maximumLineBytes + 100))
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--password-stdin"))
    #expect(result.standardError.contains("longer than"))
  }

  @Test("the line reader stops at the limit: /dev/zero-like input is not read on")
  func boundedLineStops() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("bounded-line-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(count: 1 << 20).write(to: file)
    let descriptor = open(file.path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    #expect(PasswordInput.boundedLine(from: descriptor, limit: 64) == .tooLong)
    #expect(lseek(descriptor, 0, SEEK_CUR) <= 65)
  }

  @Test(
    "the line reader returns one line, empty input, or non-UTF-8",
    arguments: [
      (Data("pass word\nnext\n".utf8), PasswordInput.Line.line("pass word")),
      (Data("no newline".utf8), .line("no newline")),
      (Data(), .empty),
      (Data([0xFF, 0xFE, 0x0A]), .notText),
    ])
  func lines(_ content: Data, _ expected: PasswordInput.Line) throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("bounded-line-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try content.write(to: file)
    let descriptor = open(file.path, O_RDONLY)
    defer { close(descriptor) }
    #expect(PasswordInput.boundedLine(from: descriptor, limit: 64) == expected)
  }

  @Test("verify with advanceClock 1e300 reports the contract error instead of crashing")
  func hugeClockAdvance() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("contracts")
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    try Data(
      """
      {"name": "far-future", "description": "d", "requires": ["controllableClock"],
       "steps": [{"op": "advanceClock", "input": {"seconds": 1e300}},
                 {"op": "currentUser", "expect": {"user": null}}]}
      """.utf8
    ).write(to: contracts.appendingPathComponent("far-future.json"))
    let result = try await baas.run(
      ["verify", "--contracts", contracts.path, "--backends", "fake"])
    #expect(result.status == 1 || result.status == 2, "\(result.status) \(result.allOutput)")
    #expect(result.standardError.contains("seconds"), "\(result.allOutput)")
  }
}
