import UserBackendKit

// The profile fields of the Firebase API (`displayName`, `photoUrl`) under the client
// library's rule (``EmulatorProfileRule``), and the bounds of the identity-provider
// values a sign-in copies into the ID token.
extension FirebaseAuthHandler {
  /// The longest identity-provider subject (`sub`) accepted: 255 characters, the limit
  /// OpenID Connect Core 1.0 §2 sets for `sub`. The subject is copied into the ID token
  /// (`firebase.identities`).
  static let maximumSubjectLength = 255

  /// The longest `providerId` accepted: 255 characters (real provider IDs are short:
  /// `apple.com`, `oidc.<name>`). The provider ID is copied into the ID token.
  static let maximumProviderIDLength = 255

  /// A profile field's change under the library's rule: removed (`deleteAttribute`) wins,
  /// then a value (`""` removes, as the SDKs send it), else kept.
  ///
  /// The service documents no answer for a display name the library would refuse; the
  /// emulator answers `400 INVALID_DISPLAY_NAME : displayName <reason>`, a code Identity
  /// Toolkit has (the Admin SDK maps it), and for a photo URL
  /// `400 INVALID_ARGUMENT : photoUrl <reason>` naming the field, as for a password
  /// that is too long (``FirebaseError/passwordTooLong``).
  static func profileChange(
    _ value: String?, _ field: EmulatorProfileRule.Field, removed: Bool = false
  ) throws(FirebaseError) -> ProfileFieldChange {
    if removed { return .remove }
    do {
      return try EmulatorProfileRule.change(value, for: field)
    } catch {
      let reason: String
      switch error {
      case .tooLong(let maximum): reason = "must be at most \(maximum) characters"
      case .invalid(let text): reason = text
      }
      switch field {
      case .displayName:
        throw FirebaseError("INVALID_DISPLAY_NAME", "displayName \(reason)")
      case .photoURL:
        var refusal = FirebaseError("INVALID_ARGUMENT", "photoUrl \(reason)")
        refusal.statusText = "INVALID_ARGUMENT"
        throw refusal
      }
    }
  }

  /// The display name an identity provider gives (the token's `name` claim, else Apple's
  /// first `user` name): the first candidate the rule accepts; one it refuses is dropped,
  /// not stored, as an email claim the canonicaliser refuses is.
  static func providerDisplayName(_ candidates: [String?]) -> String? {
    for case .some(let name) in candidates {
      if let accepted = try? EmulatorProfileRule.change(name, for: .displayName).value {
        return accepted
      }
    }
    return nil
  }
}
