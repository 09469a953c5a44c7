import Foundation
import Testing

@testable import FirebaseUserBackend

/// What `WireSeconds` and `WireMilliseconds` read: a JSON number, or a decimal string
/// (digits, an optional fraction, spaces or tabs around it). Every other spelling that
/// Swift's `Double(_:)` would take (a sign, an exponent, hexadecimal, `inf`, `nan`) is a
/// malformed answer.
@Suite(.timeLimit(.minutes(1))) struct WireNumberTests {
  /// A field as the answers declare it: optional, so `null` or absent reads as `nil`.
  struct Box<Value: Decodable>: Decodable {
    let value: Value?
  }

  /// What decoding gave: a failure, no value, or the number.
  enum Outcome: Equatable, CustomStringConvertible {
    case failed
    case absent
    case number(Double)

    var description: String {
      switch self {
      case .failed: "failed"
      case .absent: "absent"
      case .number(let value): "\(value)"
      }
    }
  }

  static func decode<Value: Decodable>(_ json: String, as type: Value.Type) -> Value?? {
    let data = Data(#"{"value":\#(json)}"#.utf8)
    guard let box = try? JSONDecoder().decode(Box<Value>.self, from: data) else { return nil }
    return .some(box.value)
  }

  static func seconds(_ json: String) -> Outcome {
    switch decode(json, as: WireSeconds.self) {
    case .none: .failed
    case .some(.none): .absent
    case .some(.some(let seconds)): .number(seconds.seconds)
    }
  }

  static func milliseconds(_ json: String) -> Outcome {
    switch decode(json, as: WireMilliseconds.self) {
    case .none: .failed
    case .some(.none): .absent
    case .some(.some(let time)): .number(time.date.timeIntervalSince1970 * 1000)
    }
  }

  /// Accepted, with the number read (the same for both types; milliseconds also have an
  /// upper bound, tested below).
  static let accepted: [(json: String, value: Double)] = [
    (#""3600""#, 3600), (#"" 3600 ""#, 3600), (#""\t3600""#, 3600), (#""3600\t""#, 3600),
    ("3600", 3600), ("3600.5", 3600.5), (#""3600.5""#, 3600.5), ("1e3", 1000), ("0", 0),
    (#""0""#, 0), (#""0003600""#, 3600), ("-0", 0), (#""1767225600000""#, 1_767_225_600_000),
    ("1767225600000", 1_767_225_600_000), (#"" 1767225600000 ""#, 1_767_225_600_000),
  ]

  /// Refused: what `Double(_:)` reads but no Firebase answer means, and the rest.
  static let refused: [String] = [
    // Spellings Swift reads as numbers.
    #""0x10""#, #""0X10""#, #""0x1p4""#, #""+5""#, #""1e3""#, #""1E3""#, #""1e308""#,
    #""1e309""#, #""-1""#, #""-0""#, #""nan""#, #""NaN""#, #""inf""#, #""-inf""#,
    #""infinity""#, #""Infinity""#, #"" nan""#, #"".5""#, #""5.""#, #""4.9e-324""#,
    // Not numbers, or not decimal text.
    #""abc""#, #""""#, #"" ""#, #""1_000""#, #""36 00""#, #""3600 seconds""#, #""3600\n""#,
    #""\n3600""#, #""\r3600""#, #""\u00a03600""#, #""\u30003600""#, #""\u200b3600""#,
    #""٣٦٠٠""#, #""１２""#, #""1.2.3""#, String(repeating: "9", count: 400).quotedJSON,
    // Not a string or a number, or a negative or infinite number.
    "true", "false", "[3600]", "{}", "[]", "-1", "1e400",
  ]

  @Test(arguments: accepted)
  func readsDecimalTextAndNumbers(json: String, value: Double) {
    #expect(Self.seconds(json) == .number(value), "\(json)")
    // Through `Date`, which counts from 2001: the same rounding on both sides.
    let time = Date(timeIntervalSince1970: value / 1000).timeIntervalSince1970 * 1000
    #expect(Self.milliseconds(json) == .number(time), "\(json)")
  }

  @Test(arguments: refused)
  func refusesEverythingElse(json: String) {
    #expect(Self.seconds(json) == .failed, "\(json)")
    #expect(Self.milliseconds(json) == .failed, "\(json)")
  }

  @Test func nullIsAbsent() {
    #expect(Self.seconds("null") == .absent)
    #expect(Self.milliseconds("null") == .absent)
  }

  @Test(arguments: [
    ("253402300799999", true), (#""253402300799999""#, true), ("253402300800000", false),
    (#""253402300799999.5""#, false), (#""99999999999999999""#, false),
  ])
  func millisecondsEndAtYear10000(json: String, accepted: Bool) {
    #expect((Self.milliseconds(json) != .failed) == accepted, "\(json)")
  }
}

extension String {
  /// The text as a JSON string literal (for digits only: no escaping needed).
  fileprivate var quotedJSON: String { "\"\(self)\"" }
}
