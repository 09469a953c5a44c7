import Foundation
import Testing

@testable import FirebaseUserBackend

/// `WireSeconds` and `WireMilliseconds` now try the string first and trim only when it
/// does not parse. These pin them to the old reading, re-implemented here: a JSON number
/// first, else a string trimmed of `.whitespaces` then `Double(text)`; then the same range
/// checks.
@Suite(.timeLimit(.minutes(1))) struct WireNumberEquivalenceTests {
  /// The old reading of a wire number.
  struct OldWireNumber: Decodable {
    let value: Double?

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Double.self) {
        value = number
      } else {
        let text = try container.decode(String.self)
        value = Double(text.trimmingCharacters(in: .whitespaces))
      }
    }
  }

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

  static func oldSeconds(_ json: String) -> Outcome {
    guard let decoded = decode(json, as: OldWireNumber.self) else { return .failed }
    guard let decoded else { return .absent }
    guard let value = decoded.value, value.isFinite, value >= 0 else { return .failed }
    return .number(value)
  }

  static func oldMilliseconds(_ json: String) -> Outcome {
    switch oldSeconds(json) {
    case .number(let value) where value <= WireMilliseconds.maximum:
      .number(Date(timeIntervalSince1970: value / 1000).timeIntervalSince1970)
    case .number: .failed
    case let other: other
    }
  }

  /// JSON values as Firebase might send them, and the kinds around them.
  static let values: [String] = [
    #""3600""#, #"" 3600 ""#, #""\t3600""#, #""3600\t""#, "3600", "3600.5", #""3600.5""#,
    #""1e3""#, "1e3", #""abc""#, #""""#, #"" ""#, "null", "true", "false", #""-1""#, "-1",
    #""-0""#, "-0", "0", #""0""#, #""nan""#, #""NaN""#, #""inf""#, #""-inf""#, #""infinity""#,
    #"" nan""#, #""0x10""#, #""+5""#, #""1_000""#, #""3600\n""#, #""\n3600""#,
    #""\r3600""#, #""\u00a03600""#, #""3600\u00a0""#, #""\u30003600""#, #""\u20093600\u2009""#,
    #""\u200b3600""#, #""٣٦٠٠""#, #""3600 seconds""#, #""36 00""#, "[3600]", "{}", "[]",
    #""1767225600000""#, "1767225600000", #"" 1767225600000 ""#, "253402300799999",
    "253402300800000", #""253402300799999.5""#, #""1e308""#, #""1e309""#, "1e308",
    "1.7976931348623157e308", #""4.9e-324""#, "1e-400",
  ]

  @Test(arguments: values)
  func secondsReadAsBefore(json: String) {
    let new: Outcome =
      switch Self.decode(json, as: WireSeconds.self) {
      case .none: .failed
      case .some(.none): .absent
      case .some(.some(let seconds)): .number(seconds.seconds)
      }
    #expect(new == Self.oldSeconds(json), "\(json)")
  }

  @Test(arguments: values)
  func millisecondsReadAsBefore(json: String) {
    let new: Outcome =
      switch Self.decode(json, as: WireMilliseconds.self) {
      case .none: .failed
      case .some(.none): .absent
      case .some(.some(let time)): .number(time.date.timeIntervalSince1970)
      }
    #expect(new == Self.oldMilliseconds(json), "\(json)")
  }

  /// The reference itself: the answers the old code gave for the cases named in the change.
  @Test func theReferenceReadsTheNamedCases() {
    #expect(Self.oldSeconds(#""3600""#) == .number(3600))
    #expect(Self.oldSeconds(#"" 3600 ""#) == .number(3600))
    #expect(Self.oldSeconds(#""\t3600""#) == .number(3600))
    #expect(Self.oldSeconds("3600.5") == .number(3600.5))
    #expect(Self.oldSeconds(#""1e3""#) == .number(1000))
    #expect(Self.oldSeconds("null") == .absent)
    for json in [#""abc""#, #""""#, "true", #""-1""#, #""nan""#, #""inf""#, #""\n3600""#] {
      #expect(Self.oldSeconds(json) == .failed, "\(json)")
    }
  }
}
