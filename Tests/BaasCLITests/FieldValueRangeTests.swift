import Foundation
import Testing
import UserBackendKit

@testable import baas

/// `doc set` values that no backend can store are usage errors naming the field, before
/// any request: a timestamp outside 0001-01-01…9999-12-31T23:59:59.999999Z UTC (after its
/// offset is applied) or on a day that does not exist, and a number that JSON writes as
/// non-zero but that is zero (underflow) or infinite (overflow) as a double.
@Suite("baas doc set: values out of every backend's range", .timeLimit(.minutes(1)))
struct FieldValueRangeTests {
  @Test(
    "a timestamp-shaped VALUE that is out of range or impossible is refused",
    arguments: [
      ("@9999-12-31T23:59:59-01:00", "between 0001-01-01"),
      ("@0001-01-01T00:00:00+00:01", "between 0001-01-01"),
      ("@0000-12-31T23:59:59Z", "between 0001-01-01"),
      ("@2026-02-30T00:00:00Z", "not a valid"), ("@2026-13-01T00:00:00Z", "not a valid"),
      ("@2026-12-01T24:00:00Z", "not a valid"), ("@2026-12-01T09:30:00+24:00", "not a valid"),
      ("@2026-12-01T09:30:00.Z", "not a valid"), ("@2026-12-01T09:30:00", "not a valid"),
    ])
  func timestampOutOfRange(text: String, reason: String) {
    guard case .unusable(let message) = FieldAssignment.value(text) else {
      Issue.record("\(text) was accepted as \(FieldAssignment.value(text))")
      return
    }
    #expect(message.contains(reason), "\(message)")
  }

  @Test("the last microsecond of 9999 and the first of 0001 are timestamps")
  func edges() {
    #expect(
      FieldAssignment.value("@9999-12-31T23:59:59.9999999Z")
        == .value(.timestamp(DocumentTimestamp.date(microseconds: 253_402_300_799_999_999))))
    #expect(
      FieldAssignment.value("@0001-01-01T00:00:00Z")
        == .value(.timestamp(DocumentTimestamp.date(microseconds: -62_135_596_800_000_000))))
  }

  @Test("a VALUE that only starts with @ is still a string", arguments: ["@ada", "@2026", "@1-2"])
  func handles(text: String) {
    #expect(FieldAssignment.value(text) == .notJSON)
  }

  @Test(
    "a non-zero number that underflows to zero is refused like one that overflows",
    arguments: ["1e-400", "-1e-400", "0.1e-324", "2e-324", "1e999", "-1e999"])
  func underflowIsRefused(text: String) {
    guard case .unusable(let message) = FieldAssignment.value(text) else {
      Issue.record("\(text) was accepted as \(FieldAssignment.value(text))")
      return
    }
    #expect(message.contains("out of range"), "\(message)")
  }

  @Test(
    "zero written any way, and the smallest doubles, are numbers",
    arguments: [
      ("0e-400", 0.0), ("-0.0", -0.0), ("0.000e5", 0.0), ("5e-324", .leastNonzeroMagnitude),
      ("2.2250738585072014e-308", 2.2250738585072014e-308), ("1e-310", Double("1e-310")!),
    ])
  func zeroAndSubnormals(text: String, expected: Double) {
    #expect(FieldAssignment.value(text) == .value(.double(expected)))
  }

  @Test("the refusal names the field; nothing else is parsed")
  func namesTheField() {
    #expect {
      _ = try FieldAssignment.parse(["a=1", "t=@9999-12-31T23:59:59-01:00"], command: "doc set")
    } throws: { error in
      (error as? UsageError)?.message.contains("field t:") == true
    }
    #expect {
      _ = try FieldAssignment.parse(["f=[1e-400]"], command: "doc set")
    } throws: { error in
      (error as? UsageError)?.message.contains("field f:") == true
    }
  }

  @Test("a string that looks like an unusable timestamp prints quoted, not as a timestamp")
  func printsQuoted() {
    #expect(
      DocumentOutput.text(.string("@9999-12-31T23:59:59-01:00")) == "\"@9999-12-31T23:59:59-01:00\""
    )
    #expect(DocumentOutput.text(.string("@2026-02-30T00:00:00Z")) == "\"@2026-02-30T00:00:00Z\"")
  }
}
