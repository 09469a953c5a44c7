import Foundation

/// Document timestamps at Firestore's precision (microseconds), converted exactly: every
/// layer that reads or writes a ``DocumentValue/timestamp(_:)`` goes through these, so a
/// value read from one backend compares equal to the same instant read from another.
///
/// ``date(microseconds:)`` builds the `Date` nearest to the instant (one correctly rounded
/// division), and ``microseconds(of:)`` inverts it exactly for every such `Date` within
/// about 285 years of 2001 (a `Date` is a `Double` of seconds since 2001: beyond 2^53
/// microseconds from then it is coarser than a microsecond). RFC 3339 text and integer
/// microseconds are exact over the whole range 0001…9999.
public enum DocumentTimestamp {
  /// Seconds from 1970-01-01 to 2001-01-01 (`Date`'s reference date).
  private static let referenceOffset: Int64 = 978_307_200
  /// 0001-01-01T00:00:00Z in microseconds since 1970.
  static let earliestMicroseconds: Int64 = -62_135_596_800 * 1_000_000
  /// 9999-12-31T23:59:59.999999Z in microseconds since 1970.
  static let latestMicroseconds: Int64 = 253_402_300_799 * 1_000_000 + 999_999

  /// The instant `microseconds` after 1970-01-01T00:00:00Z. Exact (one correctly rounded
  /// division) within 0001…9999; outside that range, where no backend can store a time,
  /// the nearest `Double` arithmetic gives (never an overflow trap, for any `Int64`).
  /// Values read from storage or the network go through ``checkedDate(microseconds:)``.
  ///
  /// The last microseconds of 9999, whose nearest `Date` is 10000-01-01T00:00:00Z, give
  /// ``DocumentValidation/latestTimestamp`` (the last `Date` before 10000), so an instant
  /// in range always gives a `Date` in range.
  public static func date(microseconds: Int64) -> Date {
    let (sinceReference, overflow) = microseconds.subtractingReportingOverflow(
      referenceOffset * 1_000_000)
    guard !overflow else {
      return Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
    let seconds = Double(sinceReference) / 1_000_000
    if microseconds <= latestMicroseconds, seconds >= DocumentValidation.endReferenceSeconds {
      return DocumentValidation.latestTimestamp
    }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  /// The instant `microseconds` after 1970-01-01T00:00:00Z, or `nil` when it lies outside
  /// 0001-01-01T00:00:00Z…9999-12-31T23:59:59.999999Z (a stored or received number no
  /// backend could have written: a corrupt or altered store).
  public static func checkedDate(microseconds: Int64) -> Date? {
    guard microseconds >= earliestMicroseconds, microseconds <= latestMicroseconds else {
      return nil
    }
    return date(microseconds: microseconds)
  }

  /// The instant `seconds` after 1970-01-01T00:00:00Z, or `nil` when it is not finite or
  /// lies outside 0001-01-01T00:00:00Z…9999-12-31T23:59:59.999999Z.
  public static func checkedDate(secondsSince1970 seconds: Double) -> Date? {
    // Compared as seconds since 1970: `latestTimestamp` as a `Date` (seconds since 2001)
    // rounds up to 10000-01-01T00:00:00Z, which would let that instant through.
    guard seconds >= Double(earliestMicroseconds / 1_000_000),
      seconds < Double(latestMicroseconds / 1_000_000 + 1)
    else { return nil }
    // The last instants of 9999 round to 10000-01-01 as a `Date`: keep them in range.
    let date = Date(timeIntervalSince1970: seconds)
    return DocumentValidation.isInRange(date) ? date : DocumentValidation.latestTimestamp
  }

  /// Microseconds since 1970-01-01T00:00:00Z, rounded to the nearest; `nil` for a date
  /// outside ``DocumentValidation/earliestTimestamp``…``DocumentValidation/latestTimestamp``.
  /// ``DocumentValidation/latestTimestamp`` is 9999-12-31T23:59:59.999999Z.
  public static func microseconds(of date: Date) -> Int64? {
    guard DocumentValidation.isInRange(date) else { return nil }
    if date == DocumentValidation.latestTimestamp { return latestMicroseconds }
    let sinceReference = (date.timeIntervalSinceReferenceDate * 1_000_000).rounded()
    let micros = Int64(sinceReference) + referenceOffset * 1_000_000
    return min(max(micros, earliestMicroseconds), latestMicroseconds)
  }

  /// The date rounded to microseconds (the value a Firestore-precision backend returns).
  public static func rounded(_ date: Date) -> Date {
    microseconds(of: date).map(date(microseconds:)) ?? date
  }

  /// RFC 3339 in UTC with exactly six fractional digits, as Firestore writes it:
  /// `"2026-11-30T12:00:00.123456Z"`. `nil` outside the timestamp range.
  public static func rfc3339(_ date: Date) -> String? {
    microseconds(of: date).map(rfc3339(microseconds:))
  }

  /// RFC 3339 in UTC with six fractional digits for microseconds since 1970.
  public static func rfc3339(microseconds: Int64) -> String {
    let (seconds, micros) = floorDivide(microseconds, 1_000_000)
    let (days, secondOfDay) = floorDivide(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(micros, 6))Z"
  }

  /// What ``read(_:)`` found in a text.
  public enum Reading: Sendable, Hashable {
    /// An instant in range: microseconds since 1970-01-01T00:00:00Z.
    case microseconds(Int64)
    /// An RFC 3339 timestamp of a real day and time that lies outside
    /// 0001-01-01T00:00:00Z…9999-12-31T23:59:59.999999Z once its offset is applied
    /// (`9999-12-31T23:59:59-01:00` is in year 10000 UTC): no backend can store it.
    case outOfRange
    /// Not RFC 3339, or a day or time that does not exist (`2026-02-30`, `24:00:00`).
    case malformed
  }

  /// Parses RFC 3339 (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T`/`t` and `Z`/`z`);
  /// fractional digits past the sixth are truncated, as Firestore does.
  /// - Returns: microseconds since 1970, or `nil` for any other shape or an impossible
  ///   date, or one outside 0001-01-01…9999-12-31 UTC (``read(_:)`` tells which).
  public static func parseMicroseconds(_ text: String) -> Int64? {
    guard case .microseconds(let micros) = read(text) else { return nil }
    return micros
  }

  /// Parses RFC 3339 like ``parseMicroseconds(_:)``, telling a timestamp that is out of
  /// the storable range apart from text that is no timestamp at all, so a caller can say
  /// which.
  public static func read(_ text: String) -> Reading {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ width: Int) -> Int64? {
      guard index + width <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[index..<index + width] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      index += width
      return value
    }
    func expect(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2), expect("Tt"), let hour = number(2), expect(":"),
      let minute = number(2), expect(":"), let second = number(2)
    else { return .malformed }
    var micros: Int64 = 0
    if expect(".") {
      var digits = 0
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        if digits < 6 { micros = micros * 10 + Int64(bytes[index] - 48) }
        digits += 1
        index += 1
      }
      guard digits > 0 else { return .malformed }
      for _ in digits..<max(digits, 6) { micros *= 10 }
    }
    var offsetSeconds: Int64 = 0
    if expect("Zz") {
    } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
      let sign: Int64 = bytes[index] == 45 ? -1 : 1
      index += 1
      guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24,
        minutes < 60
      else { return .malformed }
      offsetSeconds = sign * (hours * 3600 + minutes * 60)
    } else {
      return .malformed
    }
    guard index == bytes.count, (1...12).contains(month), day >= 1,
      day <= daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60
    else { return .malformed }
    let days = days(fromCivil: year, month, day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    let result = seconds * 1_000_000 + micros
    guard result >= earliestMicroseconds, result <= latestMicroseconds else { return .outOfRange }
    return .microseconds(result)
  }

  /// Parses RFC 3339 like ``parseMicroseconds(_:)`` and returns the `Date`.
  public static func parse(_ text: String) -> Date? {
    parseMicroseconds(text).map(date(microseconds:))
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value / divisor
    let remainder = value % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }

  private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01.
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
