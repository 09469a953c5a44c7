import Foundation
import UserBackendKit

/// The one way `baas` writes and reads points in time: RFC 3339 (ISO 8601) in UTC,
/// `2026-12-01T02:14:16.123Z`, with milliseconds, or microseconds when the value has a
/// finer part (Firestore stores microseconds) — `2026-12-01T02:14:16.123456Z`.
enum Timestamp {
  /// `date` as RFC 3339 UTC with milliseconds or microseconds (rounded to the
  /// microsecond).
  static func string(_ date: Date) -> String {
    // The document store's arithmetic (integer microseconds, proleptic Gregorian, clamped
    // to 0001…9999), so a value prints as every backend stores it and reads back the same.
    guard let micros = DocumentTimestamp.microseconds(of: date) else {
      return date.formatted(.iso8601)
    }
    let text = DocumentTimestamp.rfc3339(microseconds: micros)  // …SS.ffffffZ
    return micros % 1000 == 0 ? String(text.dropLast(4)) + "Z" : text
  }

  /// Reads an RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z`
  /// or an offset `±HH:MM`; `T` and `Z` in either case), with the document store's one
  /// parser, so `doc set` accepts exactly what every backend's documents accept.
  /// - Returns: the date (to the microsecond), or `nil` when `text` is not such a
  ///   timestamp, names an impossible day or time, or lies outside 0001…9999.
  static func parse(_ text: String) -> Date? {
    DocumentTimestamp.parse(text)
  }
}
