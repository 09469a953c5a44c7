import Foundation

/// Reads `X-NCMB-Timestamp` in the ISO 8601 variants real clients send
/// (`docs/wire/ncmb.md` §1, "Timestamp format"):
///
/// - `2013-12-02T02:44:35.452Z` (documentation, Swift, JS, iOS),
/// - `2015-05-06T12:56:13Z` (no fraction: the Ruby client),
/// - `2013-12-02T02%3A44%3A35.452Z` (colons percent-encoded: Unity, Android),
/// - `2015-05-06T12:56:13.123456` (no zone, read as UTC: Python's `isoformat()`),
/// - `…+09:00` / `…+0900` offsets; 1 to 9 fraction digits.
///
/// The signature is always computed over the header exactly as received; this parser
/// only decides whether the value is a timestamp at all. No freshness window is enforced
/// (the service's is undocumented, `docs/wire/ncmb.md` §6, item 2).
enum NCMBTimestamp {
  /// The instant `text` denotes, or `nil` when it is none of the accepted variants.
  static func parse(_ text: String) -> Date? {
    let decoded = text.replacingOccurrences(of: "%3A", with: ":")
      .replacingOccurrences(of: "%3a", with: ":")
    let bytes = Array(decoded.utf8)
    // yyyy-MM-ddTHH:mm:ss is 19 bytes at fixed positions.
    guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(bytes, 0, 4), let month = number(bytes, 5, 2),
      let day = number(bytes, 8, 2), let hour = number(bytes, 11, 2),
      let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard (1...9).contains(index - start),
        let value = Double("0" + String(decoding: bytes[(start - 1)..<index], as: UTF8.self))
      else { return nil }
      fraction = value
    }
    guard let offset = zoneOffset(bytes[index...]) else { return nil }
    var components = DateComponents()
    components.calendar = Calendar(identifier: .gregorian)
    components.timeZone = TimeZone(secondsFromGMT: 0)
    (components.year, components.month, components.day) = (year, month, day)
    (components.hour, components.minute, components.second) = (hour, minute, second)
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 61, components.isValidDate, let date = components.date
    else { return nil }
    return date.addingTimeInterval(fraction - Double(offset))
  }

  /// Seconds east of UTC for `Z`, `+HH:MM`, `+HHMM`, `-…` or nothing (UTC); `nil` when
  /// malformed.
  private static func zoneOffset(_ zone: ArraySlice<UInt8>) -> Int? {
    let zone = Array(zone)
    if zone.isEmpty || zone == [UInt8(ascii: "Z")] { return 0 }
    guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
      return nil
    }
    let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
    guard digits.count == 4, zone.count == 5 || (zone.count == 6 && zone[3] == UInt8(ascii: ":")),
      let hours = number(digits, 0, 2), let minutes = number(digits, 2, 2), minutes < 60
    else { return nil }
    let seconds = hours * 3600 + minutes * 60
    return sign == UInt8(ascii: "+") ? seconds : -seconds
  }

  private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    guard start + count <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[start..<(start + count)] {
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
