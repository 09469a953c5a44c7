import UserBackendKit

/// The client library's profile rule (``CredentialValidation/validateDisplayName(_:)``,
/// ``CredentialValidation/validatePhotoURL(_:)``), applied by the emulator to every display
/// name and photo URL a request would store through the Firebase API, so the emulator
/// keeps nothing the library would refuse to send (the NCMB API stores them as the custom
/// fields they are there, with no rule: see `NCMBUserFields.swift`): no control or format characters (ESC,
/// U+202E), no whitespace-only name, at most 256 / 2048 characters, photo URLs absolute
/// `http`/`https` only. The ID token copies the display name (`name`), so the bound also
/// keeps tokens small.
enum EmulatorProfileRule {
  /// Which profile field a value is for.
  enum Field {
    case displayName, photoURL

    /// The longest value accepted, in Unicode scalars.
    var maximumLength: Int {
      switch self {
      case .displayName: CredentialValidation.maximumDisplayNameLength
      case .photoURL: CredentialValidation.maximumPhotoURLLength
      }
    }
  }

  /// Why a value is refused.
  enum Refusal: Error {
    /// Longer than ``Field/maximumLength``.
    case tooLong(maximum: Int)
    /// Any other reason, as the library words it (`must not contain control or format
    /// characters`).
    case invalid(reason: String)
  }

  /// The change a value asks for: `nil` keeps the field, `""` removes it, any other value
  /// sets it (a display name in NFC, as the library stores it).
  ///
  /// - Throws: ``Refusal`` when the library refuses the value.
  static func change(_ value: String?, for field: Field) throws(Refusal) -> ProfileFieldChange {
    do {
      switch field {
      case .displayName: return try CredentialValidation.validateDisplayName(value)
      case .photoURL: return try CredentialValidation.validatePhotoURL(value)
      }
    } catch {
      if let value, CredentialValidation.limitedLength(value) > field.maximumLength {
        throw .tooLong(maximum: field.maximumLength)
      }
      guard case .invalidInput(_, let reason) = error.code else {
        throw .invalid(reason: error.message)
      }
      throw .invalid(reason: reason)
    }
  }
}
