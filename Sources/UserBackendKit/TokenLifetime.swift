import Foundation

/// The one rule for a believable ID token lifetime, in seconds, shared by every layer
/// that reads one: the Firebase adapter (`expiresIn`, else the ID token's `exp - iat`)
/// and the server-side token verifier (`exp - iat`). So a token one layer refuses is not
/// accepted by the other.
///
/// Firebase issues ID tokens for 3,600 s; the emulator too.
/// - ``maximum``, 31,536,000 s (365 days): a server claiming more is answering wrongly
///   (`"expiresIn": "1e308"`, an `exp` of 10³⁰⁰), and a session taken at its word would
///   never refresh.
/// - ``minimum``, 600 s (10 minutes). Decision: the adapter refreshes an ID token 300 s
///   before it expires (`FirebaseUserBackend.refreshMargin`), so a lifetime of 300 s or
///   less (`"expiresIn": "0.0000001"`) would make every call a refresh, and one just over
///   it nearly every call; twice the margin leaves at least five minutes between
///   refreshes. No Firebase server issues shorter ID tokens. 1 s would only rule out the
///   absurd values while keeping the refresh storm.
public enum TokenLifetime {
  /// The shortest lifetime believed, in seconds (see the type's comment).
  public static let minimum: TimeInterval = 600
  /// The longest lifetime believed, in seconds (365 days).
  public static let maximum: TimeInterval = 31_536_000

  /// Why `seconds` is not a believable lifetime, or `nil` when it is: not a finite
  /// number, not positive, under ``minimum`` or over ``maximum``. The reason reads after
  /// "the lifetime" (`"is shorter than 600 seconds"`) and never quotes the value.
  public static func problem(_ seconds: TimeInterval) -> String? {
    guard seconds.isFinite, seconds > 0 else { return "is not a positive number of seconds" }
    guard seconds >= minimum else { return "is shorter than \(Int(minimum)) seconds" }
    guard seconds <= maximum else { return "is longer than a year" }
    return nil
  }
}
