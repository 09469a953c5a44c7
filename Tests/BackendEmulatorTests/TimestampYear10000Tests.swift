import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// 10000-01-01T00:00:00Z itself is out of range on every path, and the last instant of
/// 9999 is in it: a `Date` is a `Double` of seconds since 2001, 2^-15 s apart in year
/// 9999, so the nearest `Date` to 9999-12-31T23:59:59.999999Z is 10000-01-01T00:00:00Z.
/// The range check compared against that rounded bound with `<=` and let year 10000 in
/// (the backends then stored it as 9999-12-31T23:59:59.999999Z). The latest in-range `Date`
/// is now the one just below 10000 (``DocumentValidation/latestTimestamp``), which stands
/// for 9999-12-31T23:59:59.999999Z.
@Suite("Timestamps: 10000-01-01T00:00:00Z is out of range everywhere", .timeLimit(.minutes(2)))
struct TimestampYear10000Tests {
  static let year10000 = Date(timeIntervalSince1970: 253_402_300_800)
  static let year0 = Date(timeIntervalSinceReferenceDate: (-63_113_904_000.0).nextDown)
  static let firstInstant = Date(timeIntervalSince1970: -62_135_596_800)

  @Test("the library's conversions refuse year 10000 and keep the last microsecond of 9999")
  func conversions() throws {
    #expect(DocumentTimestamp.microseconds(of: Self.year10000) == nil)
    #expect(DocumentTimestamp.rfc3339(Self.year10000) == nil)
    #expect(DocumentTimestamp.microseconds(of: Self.year0) == nil)
    #expect(DocumentTimestamp.rfc3339(Self.firstInstant) == "0001-01-01T00:00:00.000000Z")
    let last = DocumentTimestamp.date(microseconds: 253_402_300_799_999_999)
    #expect(last < Self.year10000)
    #expect(DocumentTimestamp.rfc3339(last) == "9999-12-31T23:59:59.999999Z")
    #expect(DocumentValidation.latestTimestamp < Self.year10000)
    #expect(
      DocumentTimestamp.rfc3339(DocumentValidation.latestTimestamp) == "9999-12-31T23:59:59.999999Z"
    )
    // Stored times (SQLite REAL seconds and INTEGER microseconds) land in range too.
    let stored = try #require(
      DocumentTimestamp.checkedDate(secondsSince1970: 253_402_300_799.999))
    #expect(stored < Self.year10000)
    let storedMicros = try #require(
      DocumentTimestamp.checkedDate(microseconds: 253_402_300_799_999_999))
    #expect(storedMicros < Self.year10000)
    #expect(DocumentTimestamp.checkedDate(secondsSince1970: 253_402_300_800) == nil)
    // Text: the last microsecond parses to an in-range Date; year 10000 never parses.
    let parsed = try #require(DocumentTimestamp.parse("9999-12-31T23:59:59.999999Z"))
    #expect(parsed < Self.year10000)
    #expect(DocumentTimestamp.parse("9999-12-31T23:00:00-01:00") == nil)
  }

  @Test(
    "a write of exactly 10000-01-01T00:00:00Z is refused, naming the field",
    arguments: IdentifierLayer.allCases)
  func writeRefused(_ layer: IdentifierLayer) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try layer.backend(rig)
    _ = try await backend.signUp(PasswordCredential(.email("y@example.com"), password: "secret1"))
    for date in [Self.year10000, Self.year0] {
      let code = await errorCode {
        try await backend.userDocuments.updateDocument(setting: ["t": .timestamp(date)])
      }
      guard case .invalidInput(let field, _) = code else {
        Issue.record("\(String(describing: code))")
        continue
      }
      #expect(field == "fields.t")
    }
    #expect(try await backend.userDocuments.document() == nil)
    // Both ends themselves are stored and read back as the same ends.
    let last = DocumentTimestamp.date(microseconds: 253_402_300_799_999_999)
    _ = try await backend.userDocuments.updateDocument(
      setting: ["last": .timestamp(last), "first": .timestamp(Self.firstInstant)])
    let read = try #require(try await backend.userDocuments.document())
    guard case .timestamp(let readLast) = read.fields["last"],
      case .timestamp(let readFirst) = read.fields["first"]
    else {
      Issue.record("\(read.fields)")
      return
    }
    #expect(readLast < Self.year10000)
    #expect(DocumentTimestamp.rfc3339(readLast)?.hasPrefix("9999-12-31T23:59:59.999") == true)
    #expect(readFirst == Self.firstInstant)
  }
}
