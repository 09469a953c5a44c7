import Foundation

/// The one rule for reading a JSON boolean from what `JSONSerialization` decoded.
///
/// Foundation decodes JSON `true`/`false` and the numbers `1`/`0` all as `NSNumber`, and
/// on Linux an `NSNumber` of `1` or `0` casts to `Bool` (`1 as? Bool` is `true`), so
/// `raw as? Bool` takes a number for a boolean, and `raw as? NSNumber` a boolean for a
/// number. Firestore, Identity Toolkit and NCMB parse JSON strictly: `{"booleanValue": 1}`
/// is a 400 there. Every place the emulator reads a JSON boolean, or a JSON number that
/// must not be a boolean, asks here.
enum JSONBoolean {
  /// The boolean `raw` is: a JSON `true`/`false` as Foundation decodes it (its class is
  /// Foundation's boolean number class, `__NSCFBoolean`), or a Swift `Bool` put into a
  /// value by hand; `nil` for anything else, numbers `1` and `0` included.
  static func value(_ raw: Any?) -> Bool? {
    guard let raw else { return nil }
    if type(of: raw) is NSNumber.Type, let number = raw as? NSNumber {
      return isBoolean(number) ? number.boolValue : nil
    }
    guard type(of: raw) == Bool.self else { return nil }
    return raw as? Bool
  }

  /// Whether `raw` is a JSON number, not a boolean (a JSON `true` also casts to
  /// `NSNumber`).
  static func isNumber(_ raw: Any) -> Bool {
    guard let number = raw as? NSNumber, !(raw is String) else { return false }
    if type(of: raw) is NSNumber.Type { return !isBoolean(number) }
    return type(of: raw) != Bool.self
  }

  /// JSON `true`/`false` as Foundation decodes them (`__NSCFBoolean`), not `1`/`0`.
  static func isBoolean(_ number: NSNumber) -> Bool {
    String(describing: type(of: number)).contains("Boolean")
  }
}
