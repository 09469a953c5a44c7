import Testing

@testable import UserBackendKit

@Suite("Decimal text", .timeLimit(.minutes(1)))
struct DecimalTextTests {
  @Test(arguments: [
    ("0", 0), ("7", 7), ("0080", 80), ("65535", 65_535), ("9223372036854775807", Int.max),
  ])
  func wholeNumbers(text: String, value: Int) {
    #expect(DecimalText.wholeNumber(text) == value)
  }

  /// Everything `Int(_:)` or a careless digit check would take, and plain garbage.
  @Test(arguments: [
    "", "+80", "-1", " 80", "80 ", "8 0", "0x50", "1_000", "8.0", "1e3", "٨٠", "８０", "²",
    "9223372036854775808", "99999999999999999999999",
  ])
  func notWholeNumbers(text: String) {
    #expect(DecimalText.wholeNumber(text) == nil, "\(text)")
  }

  @Test func wholeNumbersOfOtherWidths() {
    #expect(DecimalText.wholeNumber("255", as: UInt8.self) == 255)
    #expect(DecimalText.wholeNumber("256", as: UInt8.self) == nil)
    #expect(DecimalText.wholeNumber("18446744073709551615", as: UInt64.self) == .max)
    #expect(DecimalText.wholeNumber("18446744073709551616", as: UInt64.self) == nil)
    #expect(DecimalText.wholeNumber("65535"[...], as: Int.self) == 65_535)
  }

  @Test(arguments: [("3600", 3600.0), ("1.5", 1.5), ("0.25", 0.25), ("007", 7), ("0", 0)])
  func decimals(text: String, value: Double) {
    #expect(DecimalText.decimal(text) == value)
  }

  /// What `Double(_:)` reads but is no decimal number as written by the services.
  @Test(arguments: [
    "", "0x10", "0X10", "0x1p4", "+5", "-5", "-0", "1e3", "1E3", "1e308", "inf", "infinity",
    "nan", "NaN", ".5", "5.", "1.2.3", " 5", "5 ", "1_0", "٣", "5\n",
    String(repeating: "9", count: 400),
  ])
  func notDecimals(text: String) {
    #expect(DecimalText.decimal(text) == nil, "\(text)")
  }
}
