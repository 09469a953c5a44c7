import AdapterSupport
import Foundation
import Testing
import UserBackendKit

@Suite("Document timestamps and field checks", .timeLimit(.minutes(1)))
struct DocumentTimestampTests {
  @Test(
    "RFC 3339 text of known instants",
    arguments: [
      (0.0, 6, "1970-01-01T00:00:00.000000Z"),
      (1_764_504_000.123456, 6, "2025-11-30T12:00:00.123456Z"),
      (1_764_504_000.123456, 3, "2025-11-30T12:00:00.123Z"),
      (1_764_504_000.9999996, 6, "2025-11-30T12:00:01.000000Z"),
      (-0.5, 6, "1969-12-31T23:59:59.500000Z"),
      (951_782_400, 0, "2000-02-29T00:00:00Z"),
      (-62_135_596_800, 6, "0001-01-01T00:00:00.000000Z"),
      (253_402_300_799, 3, "9999-12-31T23:59:59.000Z"),
    ])
  func formats(seconds: Double, digits: Int, text: String) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(DocumentTimestamp.format(date, fractionDigits: digits) == text)
    let parsed = DocumentTimestamp.parse(text)
    #expect(parsed.map { DocumentTimestamp.format($0, fractionDigits: digits) } == text)
  }

  @Test("Parsing keeps microseconds, drops nanoseconds, applies offsets")
  func parses() throws {
    let nanos = try #require(DocumentTimestamp.parse("2025-11-30T12:00:00.123456789Z"))
    #expect(DocumentTimestamp.format(nanos, fractionDigits: 6) == "2025-11-30T12:00:00.123456Z")
    let offset = try #require(DocumentTimestamp.parse("2025-11-30T21:00:00+09:00"))
    #expect(DocumentTimestamp.format(offset, fractionDigits: 0) == "2025-11-30T12:00:00Z")
    #expect(DocumentTimestamp.parse("2025-11-30t12:00:00z") != nil)
  }

  @Test(
    "Text that is not RFC 3339 is refused",
    arguments: [
      "", "2025-11-30", "2025-11-30T12:00:00", "2025-02-30T12:00:00Z", "2025-13-01T00:00:00Z",
      "2025-11-30T24:00:00Z", "2025-11-30T12:00:00.Z", "2025-11-30T12:00:00Zjunk",
      "2025-11-30 12:00:00Z", "+2025-11-30T12:00:00Z", "2025-11-30T12:00:00+0900",
    ])
  func refuses(text: String) {
    #expect(DocumentTimestamp.parse(text) == nil)
  }

  @Test("Field checks name the field before any request")
  func fieldChecks() {
    func field(_ fields: [String: DocumentValue], removing: Set<String> = []) -> String? {
      do {
        try DocumentFieldChecks.check(fields: fields, removing: removing)
        return nil
      } catch {
        if case .invalidInput(let field, _) = error.code { return field }
        return "unexpected \(error)"
      }
    }
    #expect(field(["a": .string("x"), "m": .map(["t": .serverTimestamp])]) == nil)
    #expect(field(["": .null]) == "fields.")
    #expect(field(["a": .null], removing: ["a"]) == "fields.a")
    #expect(field(["a": .array([.serverTimestamp])]) == "fields.a")
    #expect(field(["a": .array([.map(["t": .serverTimestamp])])]) == "fields.a")
    #expect(field(["m": .map(["": .null])]) == "fields.m")
    #expect(field(["t": .timestamp(Date(timeIntervalSince1970: 253_402_300_800))]) == "fields.t")
    var deep = DocumentValue.null
    for _ in 0..<21 { deep = .array([deep]) }
    #expect(field(["d": deep]) == "fields.d")
    var ok = DocumentValue.null
    for _ in 0..<20 { ok = .map(["k": ok]) }
    #expect(field(["d": ok]) == nil)
  }
}
