import Foundation

extension CredentialValidation {
  /// The longest email address accepted, in Unicode scalars (code points) after trimming: 254 (the longest
  /// address that fits an SMTP path, RFC 5321). A longer one is `invalidEmail`, the same
  /// case as a malformed address, as Firebase answers `INVALID_EMAIL`.
  public static let maximumEmailLength = 254

  /// The longest password accepted on sign-up and sign-in, in Unicode scalars (code points): 4096. A longer
  /// one is `invalidInput(field: "password", reason: "must be at most 4096 characters")`;
  /// the limit keeps a huge input from reaching the password hash.
  public static let maximumPasswordLength = 4096

  /// The longest user name accepted, in Unicode scalars (code points) after trimming: 255. A longer one is
  /// `invalidInput(field: "username", reason: "must be at most 255 characters")`.
  public static let maximumUsernameLength = 255

  /// The length the limits above count: Unicode scalars (code points), not characters
  /// as people see them, so combining marks count one each. Counting grapheme clusters
  /// let `"a" + 50,000 combining accents` pass as one character.
  package static func limitedLength(_ value: String) -> Int { value.unicodeScalars.count }

  /// `invalidInput(field:reason:)` for a value longer than `maximum` characters.
  static func tooLong(_ field: String, maximum: Int) -> UserBackendError {
    UserBackendError(.invalidInput(field: field, reason: "must be at most \(maximum) characters"))
  }
}
