import Foundation

/// The one way `baas` writes and reads points in time: RFC 3339 (ISO 8601) in UTC,
/// `2026-12-01T02:14:16.123Z`, with milliseconds, or microseconds when the value has a
/// finer part (Firestore stores microseconds) — `2026-12-01T02:14:16.123456Z`.
enum Timestamp {
  /// `date` as RFC 3339 UTC with milliseconds or microseconds (rounded to the
  /// microsecond).
  static func string(_ date: Date) -> String {
    let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
    guard micros.isFinite, abs(micros) < 9.0e18 else { return date.formatted(.iso8601) }
    let total = Int64(micros)
    var seconds = total / 1_000_000
    var fraction = total % 1_000_000
    if fraction < 0 {
      fraction += 1_000_000
      seconds -= 1
    }
    let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    let digits =
      fraction % 1000 == 0
      ? pad(fraction / 1000, to: 3) : pad(fraction, to: 6)
    return String(whole.dropLast()) + "." + digits + "Z"
  }

  private static func pad(_ value: Int64, to width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// Reads an RFC 3339 timestamp: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to 9
  /// digits, then `Z` or an offset `±HH:MM` (`T` and `Z` in either case).
  /// - Returns: the date, or `nil` when `text` is not such a timestamp (also for a day or
  ///   time out of range, such as February 30th).
  static func parse(_ text: String) -> Date? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= scalars.count else { return nil }
      var value = 0
      for scalar in scalars[index..<(index + width)] {
        guard ("0"..."9").contains(scalar) else { return nil }
        value = value * 10 + Int(scalar.value - 48)
      }
      index += width
      return value
    }
    func expect(_ characters: String) -> Bool {
      guard index < scalars.count, characters.unicodeScalars.contains(scalars[index]) else {
        return false
      }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2), expect("Tt"), let hour = number(2), expect(":"),
      let minute = number(2), expect(":"), let second = number(2)
    else { return nil }
    var fraction = 0.0
    if index < scalars.count, scalars[index] == "." {
      index += 1
      let start = index
      while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
      let digits = index - start
      guard (1...9).contains(digits) else { return nil }
      fraction = Double("0." + String(String.UnicodeScalarView(scalars[start..<index]))) ?? 0
    }
    var offset = 0
    if expect("Zz") {
      offset = 0
    } else if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
      let sign = scalars[index] == "-" ? -1 : 1
      index += 1
      guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24,
        minutes < 60
      else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    } else {
      return nil
    }
    guard index == scalars.count, (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let date = calendar.date(from: components),
      calendar.component(.day, from: date) == day
    else { return nil }
    return date.addingTimeInterval(fraction - TimeInterval(offset))
  }
}
