import Foundation

/// The character rule of a new password (sign-up, password change, password reset,
/// linking a password to a guest), shared by every backend.
///
/// Decision: a new password may hold any visible text, spaces and emoji included, but
/// - no control character (C0 such as CR, LF, TAB and ESC; DEL; C1) and no line or
///   paragraph separator (U+2028, U+2029): a line-based input (a prompt, standard input,
///   an env file with CRLF line ends) cannot carry them, or carries them only sometimes,
///   so an account created with one could later be entered only through the channel that
///   created it;
/// - no format character (`Cf`) that stands alone, outside a visible character: U+200B
///   and the other zero-width spaces and joiners at the start, bidi controls (U+202E),
///   U+FEFF, the soft hyphen, the word joiner. They cannot be seen or reliably typed, and
///   input methods and password managers drop them. Format characters that Unicode
///   attaches to a visible character stay allowed: the zero-width joiner of emoji
///   sequences (👨‍👩‍👧) and of Indic conjuncts, the non-joiner of Persian, the tag characters
///   of subdivision flags; refusing those would refuse what a phone keyboard types.
///
/// Existing passwords (sign-in, reauthentication) are not held to this rule: an account
/// created before it may have such a password.
extension CredentialValidation {
  /// Why `password` cannot be a new password (a reason that never quotes it), or `nil`.
  package static func newPasswordCharacterProblem(_ password: String) -> String? {
    // ASCII has controls (C0, DEL) and no format characters: decided on the bytes.
    if password.utf8.allSatisfy({ $0 < 0x80 }) {
      return password.utf8.contains { $0 < 0x20 || $0 == 0x7F } ? controlCharacterReason : nil
    }
    for scalar in password.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator: return controlCharacterReason
      default: continue
      }
    }
    let standsAlone = password.contains { character in
      character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .format }
    }
    return standsAlone ? formatCharacterReason : nil
  }

  private static let controlCharacterReason =
    "must not contain control characters or line breaks (CR, LF, TAB, ESC, …)"

  private static let formatCharacterReason =
    "must not contain invisible format characters (such as a zero-width space or a "
    + "direction mark) outside a visible character"
}
