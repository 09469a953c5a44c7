import Foundation

/// RFC 3339 UTC timestamps of document fields, in the proleptic Gregorian calendar, for
/// years 0001 through 9999 (Firestore's timestamp range; NCMB `Date` values use the same
/// text form). Foundation's `Calendar` switches to the Julian calendar before 1582, so the
/// conversion is the civil-date arithmetic, written here once for both adapters.
package enum DocumentTimestamp {
  /// The earliest representable instant, 0001-01-01T00:00:00Z.
  package static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
  /// The first instant after the representable range, 10000-01-01T00:00:00Z.
  package static let end = Date(timeIntervalSince1970: 253_402_300_800)

  /// Whether `date` lies in 0001-01-01 … 9999-12-31 (UTC).
  package static func isRepresentable(_ date: Date) -> Bool {
    date >= earliest && date < end
  }

  /// `2026-11-30T12:00:00.123456Z` (`fractionDigits` 6) or `2026-11-30T12:00:00.123Z` (3):
  /// UTC, the fraction rounded to the nearest unit (a carry moves the second).
  /// - Precondition: `fractionDigits` is in 0…9. A date outside the representable range
  ///   is clamped to it (callers check ``isRepresentable(_:)`` first).
  package static func format(_ date: Date, fractionDigits: Int) -> String {
    let clamped = min(max(date, earliest), end.addingTimeInterval(-1))
    var unit: Int64 = 1
    for _ in 0..<fractionDigits { unit *= 10 }
    let total = (clamped.timeIntervalSince1970 * Double(unit)).rounded()
    let units = Int64(total)
    var seconds = units / unit
    var fraction = units % unit
    if fraction < 0 {
      fraction += unit
      seconds -= 1
    }
    let days = floorDivide(seconds, 86_400)
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civilDate(fromDays: days)
    var text =
      pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2)
      + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if fractionDigits > 0 { text += "." + pad(fraction, fractionDigits) }
    return text + "Z"
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T`/`Z` in either case). Digits of
  /// the fraction beyond microseconds are dropped.
  /// - Returns: the instant, or `nil` for any other text or an impossible date.
  package static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[start..<(start + count)] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D,
      bytes[10] == 0x54 || bytes[10] == 0x74, bytes[13] == 0x3A, bytes[16] == 0x3A,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var index = 19
    var micros: Int64 = 0
    if index < bytes.count, bytes[index] == 0x2E {
      index += 1
      var digits = 0
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        if digits < 6 { micros = micros * 10 + Int64(bytes[index] - 0x30) }
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      for _ in min(digits, 6)..<6 { micros *= 10 }
    }
    guard index < bytes.count else { return nil }
    var offset: Int64 = 0
    switch bytes[index] {
    case 0x5A, 0x7A:
      index += 1
    case 0x2B, 0x2D:
      guard bytes.count == index + 6, bytes[index + 3] == 0x3A,
        let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours < 24,
        minutes < 60
      else { return nil }
      offset = (hours * 3600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
      index += 6
    default:
      return nil
    }
    guard index == bytes.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }

  private static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01.
  private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
