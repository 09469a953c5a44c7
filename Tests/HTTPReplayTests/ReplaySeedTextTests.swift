import Foundation
import Testing

@testable import HTTPReplay

/// `log._replay.seed` written as a string is plain decimal digits, for the cassette reader
/// and the linter alike.
@Suite("Cassette seed text", .timeLimit(.minutes(1)))
struct ReplaySeedTextTests {
  /// A fresh cassette's bytes with the seed replaced by the JSON value `seed`.
  static func cassette(seed: String) throws -> Data {
    let text = String(decoding: try Fixture.cassette([]).encoded(), as: UTF8.self)
    let replaced = text.replacingOccurrences(
      of: #""seed"\s*:\s*"42""#, with: #""seed" : \#(seed)"#, options: .regularExpression)
    #expect(replaced != text, "the fixture's seed is written as \"42\"")
    return Data(replaced.utf8)
  }

  @Test(arguments: [#""+5""#, #""٥""#, #""0x5""#, #"" 5""#, #""5.0""#, #""-5""#, #""""#])
  func refused(seed: String) throws {
    let data = try Self.cassette(seed: seed)
    #expect(throws: (any Error).self, "\(seed)") { try Cassette.decode(data) }
    let findings = CassetteLinter.lint(data: data, file: "x.har")
    #expect(findings.contains { $0.location == "log._replay.seed" }, "\(seed): \(findings)")
  }

  @Test(arguments: [#""5""#, #""18446744073709551615""#, "5"])
  func accepted(seed: String) throws {
    let data = try Self.cassette(seed: seed)
    #expect(try Cassette.decode(data).metadata.seed > 0)
    #expect(!CassetteLinter.lint(data: data, file: "x.har").contains { $0.kind == .schema })
  }
}
