import Foundation

#if canImport(CIDN2)
  import CIDN2
#endif

/// The one canonical form of each account identifier, used by every layer: the client
/// checks (``CredentialValidation``, ``PhoneNumber``), the fake's `UserStore` (which keys
/// its UNIQUE indexes on these forms) and the emulator's Firebase and NCMB handlers. So one
/// input is one account everywhere, and an input refused anywhere is refused everywhere
/// with the same ``UserBackendError``.
///
/// - **Email**: surrounding whitespace trimmed, Unicode NFC, lower-cased, the domain in
///   its IDNA ASCII form (UTS #46 non-transitional): `User@Bücher.example` and
///   `user@xn--bcher-kva.example` are both `user@xn--bcher-kva.example`.
/// - **User name**: surrounding whitespace trimmed, NFC; case is kept (`Émile` and
///   `émile` are two names, `émile` precomposed and `e` + U+0301 are one).
/// - **Phone number**: E.164 (see ``phoneNumber(_:)``), surrounding whitespace trimmed.
///
/// No identifier may contain a control (`Cc`: NUL, ESC, U+0085) or format (`Cf`: U+200B,
/// U+202E RIGHT-TO-LEFT OVERRIDE, U+FEFF) character: they make a value that displays as
/// another one, and a NUL is where C code would cut the text.
///
/// IDNA conversion uses libidn2 (system library `CIDN2`) on Linux. On Apple platforms,
/// where libidn2 is not part of the system, Foundation's `URLComponents.encodedHost`
/// (IDNA, macOS 13 / iOS 16 and later) converts the domain instead; both follow UTS #46,
/// so the forms agree for ordinary domains, but rare edge cases (deviation characters,
/// invalid bidi labels) may differ between the two libraries.
public enum IdentifierCanonicalization {
  // MARK: Email

  /// The canonical form of `email`: trimmed, NFC, lower-case, IDNA ASCII domain.
  ///
  /// - Returns: the canonical email.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "email")` when empty after
  ///   trimming; `.invalidEmail` unless there is exactly one `@` with text on both sides,
  ///   no whitespace, control or format character, a domain that IDNA accepts and that is a
  ///   usable host name (``isUsableDomain(_:)``, for ASCII and non-ASCII domains alike),
  ///   and at most
  ///   ``CredentialValidation/maximumEmailLength`` characters in the canonical form.
  public static func email(_ email: String) throws(UserBackendError) -> String {
    let folded = fold(email).lowercased()
    guard !folded.isEmpty else {
      throw UserBackendError(.invalidInput(field: "email", reason: "must not be empty"))
    }
    // Split at every `@` byte, without grapheme breaking over the whole address (`baas
    // bench`, adapter overhead). It differs from a split by `Character` only where a mark
    // is glued to the `@` (`x@\u{301}@y` now has two, `x\u{D4E}@y` now has one): an `@`
    // is an `@` whatever follows it.
    let parts = folded.utf8.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
      !containsWhitespace(folded), !containsControlOrFormatCharacters(folded),
      let domain = asciiDomain(String(folded[parts[1].startIndex...]))
    else { throw malformedEmail }
    let canonical = folded[..<parts[0].endIndex] + "@" + domain
    guard CredentialValidation.limitedLength(canonical) <= CredentialValidation.maximumEmailLength
    else { throw malformedEmail }
    return canonical
  }

  /// The canonical form of `email` without the checks: trimmed, NFC, lower-cased, and the
  /// domain in IDNA ASCII form when it has one. For comparisons only; use ``email(_:)``
  /// before storing or sending.
  public static func emailComparisonForm(_ email: String) -> String {
    if let canonical = try? self.email(email) { return canonical }
    return fold(email).lowercased()
  }

  /// The domain in IDNA ASCII form (lower case), or `nil` when IDNA refuses it or the
  /// ASCII form breaks the host-name rule (``isUsableDomain(_:)``: labels of 1–63 letters,
  /// digits and hyphens, no hyphen at either end of a label, no empty label, at most 253
  /// characters). An ASCII domain is only lower-cased.
  public static func asciiDomain(_ domain: String) -> String? {
    guard let ascii = idnaASCII(domain), isUsableDomain(ascii) else { return nil }
    return ascii
  }

  /// The IDNA ASCII form, lower case, without the host-name rule.
  private static func idnaASCII(_ domain: String) -> String? {
    let lowered = domain.lowercased()
    if isASCII(lowered) { return lowered }
    guard !containsControlOrFormatCharacters(lowered) else { return nil }
    #if canImport(CIDN2)
      var output: UnsafeMutablePointer<CChar>?
      let result = ubk_idn2_lookup(lowered, &output)
      defer { idn2_free(output) }
      guard result == 0, let output else { return nil }
      let ascii = String(cString: output)
      return ascii.isEmpty ? nil : ascii.lowercased()
    #else
      var components = URLComponents()
      components.host = lowered
      guard let ascii = components.encodedHost, !ascii.isEmpty, ascii.allSatisfy(\.isASCII)
      else { return nil }
      return ascii.lowercased()
    #endif
  }

  // MARK: User name

  /// The canonical form of a user name: trimmed, NFC, case kept.
  ///
  /// - Returns: the canonical user name.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "username")` when empty after
  ///   trimming, containing a control or format character, or longer than
  ///   ``CredentialValidation/maximumUsernameLength`` characters.
  public static func username(_ username: String) throws(UserBackendError) -> String {
    let canonical = fold(username)
    guard !canonical.isEmpty else {
      throw UserBackendError(.invalidInput(field: "username", reason: "must not be empty"))
    }
    guard !containsControlOrFormatCharacters(canonical) else {
      throw UserBackendError(
        .invalidInput(
          field: "username", reason: "must not contain control or format characters"))
    }
    guard
      CredentialValidation.limitedLength(canonical) <= CredentialValidation.maximumUsernameLength
    else {
      throw CredentialValidation.tooLong(
        "username", maximum: CredentialValidation.maximumUsernameLength)
    }
    return canonical
  }

  // MARK: Shared

  /// `true` when `text` has a control (`Cc`) or format (`Cf`) character.
  public static func containsControlOrFormatCharacters(_ text: String) -> Bool {
    // ASCII has controls (C0, DEL) and no format characters: decided on the bytes.
    if isASCII(text) {
      return text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
    return text.unicodeScalars.contains {
      $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
    }
  }

  /// `true` when `text` has a Unicode `White_Space` scalar anywhere. Stricter than
  /// `Character.isWhitespace`, which reads only a cluster's first scalar: `a\u{D4E} b` (a
  /// prepended mark glued to the space) has whitespace here and not there.
  static func containsWhitespace(_ text: String) -> Bool {
    // ASCII whitespace is TAB…CR and SPACE: decided on the bytes.
    if isASCII(text) {
      return text.utf8.contains { $0 == 0x20 || (0x09...0x0D).contains($0) }
    }
    return text.unicodeScalars.contains { $0.properties.isWhitespace }
  }

  /// `true` when every byte of `text` is ASCII: the fast paths above decide such text on
  /// its bytes.
  private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

  /// Trimmed and NFC.
  static func fold(_ text: String) -> String {
    // Printable ASCII with no space at either end is its own fold; Foundation's trimming
    // and normalisation were a tenth of an adapter's own sign-in work (`baas bench`).
    let bytes = text.utf8
    if let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
      bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
    {
      return text
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
      .precomposedStringWithCanonicalMapping
  }

  static let malformedEmail = UserBackendError(
    .invalidEmail, message: "The email address is malformed.")
}
