import Foundation
import UserBackendKit

/// A duration in seconds that Firebase sends as a string (`"expiresIn": "3600"`,
/// `"expires_in": "3600"`); a JSON number is accepted too. It must be finite and not
/// negative: anything else is a decoding error (a malformed answer), never an expiry
/// in the past or at "not a number".
struct WireSeconds: Decodable, Sendable, Hashable {
  /// The seconds.
  let seconds: TimeInterval

  /// Decodes `"3600"` or `3600`.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try wireNumber(container)
    guard let value, value.isFinite, value >= 0 else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a finite, non-negative number of seconds")
    }
    seconds = value
  }

  init(seconds: TimeInterval) { self.seconds = seconds }
}

/// A point in time that Firebase sends as milliseconds since 1970 in a decimal string
/// (`"createdAt": "1767225600000"` in `accounts:lookup`); a JSON number is accepted too.
/// It must be a finite, non-negative number no later than year 10000: anything else is a
/// decoding error (a malformed answer), never a made-up date.
struct WireMilliseconds: Decodable, Sendable, Hashable {
  /// The time.
  let date: Date

  /// The largest accepted value: 9999-12-31T23:59:59.999Z in milliseconds.
  static let maximum: Double = 253_402_300_799_999

  /// Decodes `"1767225600000"` or `1767225600000`.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try wireNumber(container)
    guard let value, value.isFinite, value >= 0, value <= Self.maximum else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a number of milliseconds since 1970")
    }
    date = Date(timeIntervalSince1970: value / 1000)
  }

  init(date: Date) { self.date = date }
}

/// The number in a decimal string (`"3600"`, `"1.5"`; spaces or tabs around it allowed)
/// or a JSON number; `nil` for a string that is not such a number. A string is read by
/// ``DecimalText/decimal(_:)``: no sign, exponent, hexadecimal form (`"0x10"` would be 16
/// to `Double(_:)`), `inf` or `nan`.
///
/// The string is tried first: it is what Firebase sends, and a failed
/// `decode(Double.self)` builds a `DecodingError` before `try?` drops it. Trimming only
/// when the plain text does not parse keeps the common path free of copies.
///
/// - Throws: `DecodingError` when the value is neither a string nor a number.
private func wireNumber(_ container: any SingleValueDecodingContainer) throws -> Double? {
  if let text = try? container.decode(String.self) {
    if let value = DecimalText.decimal(text) { return value }
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let trimmed = text.drop(while: blank).reversed().drop(while: blank).reversed()
    return DecimalText.decimal(String(trimmed))
  }
  return try container.decode(Double.self)
}

/// An answer whose fields are all ignored (`accounts:delete` answers `{}` or only `kind`).
/// Anything but a JSON object is refused.
struct EmptyResponse: FirebaseResponse, Hashable {
  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init() {}

  init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: AnyKey.self)
  }
}

/// One linked provider, as in `providerUserInfo[]` (the Identity Toolkit schema's
/// `GoogleCloudIdentitytoolkitV1ProviderUserInfo`).
struct ProviderUserInfo: Decodable, Sendable, Hashable {
  /// `"password"`, `"phone"`, `"apple.com"`, …
  let providerId: String
  /// The provider's email, when any.
  let email: String?
  /// The phone number for `"phone"`.
  let phoneNumber: String?
}
