import Foundation

/// One change to an optional profile field, as ``UserBackend/updateProfile(displayName:photoURL:)``
/// takes it: `nil` keeps the field, an empty string removes it, anything else sets it.
public enum ProfileFieldChange: Sendable, Hashable {
  /// Leave the field as it is.
  case keep
  /// Remove the field (Firebase `deleteAttribute`, NCMB `null`).
  case remove
  /// Set the field to this checked value.
  case set(String)

  /// The new value, or `nil` for ``keep`` and ``remove``.
  public var value: String? {
    if case .set(let value) = self { return value }
    return nil
  }
}

/// The checked input of ``UserBackend/updateProfile(displayName:photoURL:)``.
public struct ProfileUpdate: Sendable, Hashable {
  /// The display-name change.
  public var displayName: ProfileFieldChange
  /// The photo-URL change; a set value is an absolute `http`/`https` URL.
  public var photoURL: ProfileFieldChange

  /// A checked update.
  public init(displayName: ProfileFieldChange, photoURL: ProfileFieldChange) {
    self.displayName = displayName
    self.photoURL = photoURL
  }
}

/// The input checks of the account-management operations, shared by every backend (the
/// adapters before any network call, the fake before touching its store) so one input is
/// refused everywhere with the same ``UserBackendError``.
extension CredentialValidation {
  /// The longest display name accepted, in Unicode scalars: 256.
  public static let maximumDisplayNameLength = 256

  /// The longest photo URL accepted, in Unicode scalars: 2048 (what browsers and CDNs
  /// reliably carry).
  public static let maximumPhotoURLLength = 2048

  /// The longest out-of-band code accepted, in Unicode scalars: 512. Real codes are
  /// about 50 characters; the limit keeps a pasted document out of a request.
  public static let maximumOutOfBandCodeLength = 512

  /// Checks a display-name change: `nil` keeps, `""` removes; otherwise no control or
  /// format characters, not only whitespace, at most ``maximumDisplayNameLength``
  /// characters. The name is kept as typed (NFC), not trimmed.
  ///
  /// - Returns: the change.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "displayName")`.
  public static func validateDisplayName(_ displayName: String?) throws(UserBackendError)
    -> ProfileFieldChange
  {
    guard let displayName else { return .keep }
    if displayName.isEmpty { return .remove }
    let field = "displayName"
    guard !displayName.allSatisfy(\.isWhitespace) else {
      throw UserBackendError(
        .invalidInput(field: field, reason: "must not be only whitespace (pass \"\" to remove)"))
    }
    guard !IdentifierCanonicalization.containsControlOrFormatCharacters(displayName) else {
      throw UserBackendError(
        .invalidInput(field: field, reason: "must not contain control or format characters"))
    }
    guard limitedLength(displayName) <= maximumDisplayNameLength else {
      throw tooLong(field, maximum: maximumDisplayNameLength)
    }
    return .set(displayName.precomposedStringWithCanonicalMapping)
  }

  /// Checks a photo-URL change: `nil` keeps, `""` removes; otherwise an absolute `http`
  /// or `https` URL with a host, no user name or password, a port (when given) in
  /// 1…65535 written in plain digits without leading zeros (`:065` and an empty `:` are
  /// refused, ``portNumber(_:)``), no whitespace, control or format characters, at most
  /// ``maximumPhotoURLLength`` characters.
  ///
  /// - Returns: the change (the URL as given).
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "photoURL")`.
  public static func validatePhotoURL(_ photoURL: String?) throws(UserBackendError)
    -> ProfileFieldChange
  {
    guard let photoURL else { return .keep }
    if photoURL.isEmpty { return .remove }
    let field = "photoURL"
    guard limitedLength(photoURL) <= maximumPhotoURLLength else {
      throw tooLong(field, maximum: maximumPhotoURLLength)
    }
    guard !photoURL.contains(where: \.isWhitespace),
      !IdentifierCanonicalization.containsControlOrFormatCharacters(photoURL),
      let components = URLComponents(string: photoURL),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      URL(string: photoURL) != nil
    else {
      throw UserBackendError(
        .invalidInput(field: field, reason: "must be an absolute http or https URL"))
    }
    // Shown to everyone who sees the profile: no credentials in it, and a port a
    // connection can use.
    guard components.user == nil, components.password == nil else {
      throw UserBackendError(
        .invalidInput(field: field, reason: "must not hold a user name or password"))
    }
    // Read from the text: `URLComponents.port` reads `:065` as 65 and `:` as no port.
    guard authorityPortIsUsable(photoURL) else {
      throw UserBackendError(.invalidInput(field: field, reason: portRule))
    }
    return .set(photoURL)
  }

  /// Checks the input of ``UserBackend/updateProfile(displayName:photoURL:)``: the
  /// display name first, then the photo URL.
  ///
  /// - Returns: both changes.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "displayName" | "photoURL")`.
  public static func validateProfileUpdate(displayName: String?, photoURL: String?)
    throws(UserBackendError) -> ProfileUpdate
  {
    ProfileUpdate(
      displayName: try validateDisplayName(displayName),
      photoURL: try validatePhotoURL(photoURL))
  }

  /// Checks the new email of ``UserBackend/updateEmail(_:)``: the sign-up rule
  /// (``validateEmail(_:)``).
  ///
  /// - Returns: the canonical email.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "email")`, `.invalidEmail`.
  public static func validateEmailChange(_ newEmail: String) throws(UserBackendError) -> String {
    try validateEmail(newEmail)
  }

  /// Checks the new password of ``UserBackend/updatePassword(_:)`` and
  /// ``UserBackend/confirmPasswordReset(code:newPassword:)``: the sign-up rule
  /// (``validateNewPassword(_:)``).
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "password")`, `.weakPassword`.
  public static func validatePasswordChange(_ newPassword: String) throws(UserBackendError) {
    try validateNewPassword(newPassword)
  }

  /// Checks an out-of-band code (email verification, password reset): trimmed, non-empty,
  /// visible ASCII only, at most ``maximumOutOfBandCodeLength`` characters.
  ///
  /// - Returns: the trimmed code.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "code")`; the message never
  ///   contains the code.
  public static func validateOutOfBandCode(_ code: String) throws(UserBackendError) -> String {
    let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw UserBackendError(.invalidInput(field: "code", reason: "must not be empty"))
    }
    guard limitedLength(trimmed) <= maximumOutOfBandCodeLength else {
      throw tooLong("code", maximum: maximumOutOfBandCodeLength)
    }
    guard trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw UserBackendError(
        .invalidInput(field: "code", reason: "must be the code from the message"))
    }
    return trimmed
  }
}
