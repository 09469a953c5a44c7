/// Reading numbers written as plain decimal text: a port in a setting, a count in a
/// command-line option, a lifetime a server sends as a string.
///
/// Swift's own `Int(_:)` and `Double(_:)` read more than that: `Int("+80")` is 80,
/// `Double("0x10")` is 16, `Double("1e308")`, `Double("inf")` and `Double("nan")` parse,
/// and so do `Double("0x1p4")` and `Double(".5")`. None of those is a decimal number as
/// the protocols and settings here define it, and accepting them turns a typo or a hostile
/// answer into a value nobody wrote. Every such reading goes through here.
package enum DecimalText {
  /// `text` as a whole number: one or more ASCII digits `0`–`9` and nothing else (no sign,
  /// no spaces, no `_`, no other script's digits).
  ///
  /// - Returns: the value, or `nil` when `text` is not such a number or does not fit `T`.
  package static func wholeNumber<T: FixedWidthInteger>(
    _ text: some StringProtocol, as type: T.Type = Int.self
  ) -> T? {
    var value: T = 0
    var sawDigit = false
    for byte in text.utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = shifted.addingReportingOverflow(T(byte - UInt8(ascii: "0")))
      guard !overflowA, !overflowB else { return nil }
      value = sum
      sawDigit = true
    }
    return sawDigit ? value : nil
  }

  /// `text` as a non-negative decimal: ASCII digits, optionally followed by `.` and more
  /// digits (`"3600"`, `"1.5"`). No sign, exponent, hexadecimal form, `inf` or `nan`, and
  /// no spaces (trim them first where a format allows them).
  ///
  /// - Returns: the value (finite), or `nil` when `text` is not such a number or is too
  ///   long to be finite.
  package static func decimal(_ text: some StringProtocol) -> Double? {
    var digitsBefore = 0
    var digitsAfter = 0
    var sawPoint = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if sawPoint { digitsAfter += 1 } else { digitsBefore += 1 }
      case UInt8(ascii: ".") where !sawPoint:
        sawPoint = true
      default:
        return nil
      }
    }
    guard digitsBefore > 0, !sawPoint || digitsAfter > 0 else { return nil }
    // The text is now plain decimal, which `Double(_:)` reads exactly as written.
    guard let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  /// `text` as a number in JSON's notation (RFC 8259 §6): an optional `-`, digits, an
  /// optional fraction and an optional exponent (`"-1.5e3"`), as proto3 JSON allows a
  /// double to be written in a string. Not `+5`, `.5`, `5.`, hexadecimal, `inf` or `nan`
  /// (proto3's `"NaN"` and `"Infinity"` are the caller's to read).
  ///
  /// - Returns: the value, or `nil` when `text` is not such a number or is outside the
  ///   range of `Double`: too large (`"1e400"`) or so small that it would read as 0
  ///   (`"1e-400"`, `"-1e-400"`; `"0e-400"` is 0 and subnormal doubles such as `"5e-324"`
  ///   are kept), the rule of ``JSONTextCheck``.
  package static func jsonNumber(_ text: some StringProtocol) -> Double? {
    let bytes = Array(text.utf8)
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        index += 1
      }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard digits() > 0 else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    let mantissaEnd = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return nil }
    }
    guard index == bytes.count, let value = Double(String(text)), value.isFinite else {
      return nil
    }
    // A non-zero digit read as 0 underflowed: 0 would be a value nobody wrote.
    if value == 0,
      bytes[..<mantissaEnd].contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") })
    {
      return nil
    }
    return value
  }
}
