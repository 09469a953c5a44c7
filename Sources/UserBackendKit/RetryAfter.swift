import Foundation

/// Reading an HTTP `Retry-After` header (RFC 9110 §10.2.3) and showing a retry delay.
///
/// The header is server-controlled: whatever it holds, these functions never trap.
/// A delay is accepted only when it is finite and non-negative, and is clamped to
/// ``maximum`` (one day).
package enum RetryAfter {
  /// The longest delay accepted, in seconds: 86,400 (one day). Larger values are clamped.
  package static let maximum: TimeInterval = 86_400

  /// Parses a `Retry-After` value.
  ///
  /// - Parameters:
  ///   - value: the header value: delay-seconds (`"120"`, also a decimal such as
  ///     `"1.5"`) or an IMF-fixdate (`"Wed, 21 Oct 2015 07:28:00 GMT"`).
  ///   - now: the current time, used only for the date form.
  /// - Returns: the delay in seconds, in `0...maximum` (a date in the past gives 0), or
  ///   `nil` when the value is absent, not a number or date, not finite (`inf`, `nan`) or
  ///   negative.
  package static func parse(_ value: String?, now: Date = Date()) -> TimeInterval? {
    guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
      return nil
    }
    if text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
      return TimeInterval(text).flatMap(clamped)
    }
    guard let date = httpDate(text) else { return nil }
    return clamped(max(0, date.timeIntervalSince(now)))
  }

  /// `seconds` clamped to `0...maximum`, or `nil` when it is not finite or is negative.
  package static func clamped(_ seconds: TimeInterval) -> TimeInterval? {
    guard seconds.isFinite, seconds >= 0 else { return nil }
    return min(seconds, maximum)
  }

  /// A delay as whole seconds for display, rounded up (`0.2` -> 1): `nil` when it is not
  /// finite or is negative; at most `Int(maximum)`.
  package static func wholeSeconds(_ seconds: TimeInterval) -> Int? {
    clamped(seconds).map { Int($0.rounded(.up)) }
  }

  private static func httpDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text)
  }
}
