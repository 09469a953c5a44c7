import Foundation

/// The longest server-sent strings a client keeps. Every state a ``SessionEngine`` stores
/// passes ``check(_:)-(PersistedAuthState)`` first, so no answer, from any adapter, can
/// make the client store a session it then refuses to read (a session file is read up to
/// 1 MiB): an over-long token or identifier is `.malformedResponse` naming the field, and
/// the stored state stays as it was.
///
/// The limits are the client's own input limits (one constant per field, shared with
/// ``CredentialValidation``). Lengths count Unicode scalars, as the input checks do;
/// tokens count UTF-8 bytes.
///
/// Decision, per field: tokens, the user ID, email, user name and phone number key the
/// session (they are what the client signs in with and sends back), so one over its limit
/// refuses the answer: no usable session can be made of it. The display name and the photo
/// URL are profile data any other client of the same account may have set to any length
/// (on NCMB they are ordinary custom fields), so one over its limit is dropped (`nil`, as
/// a `photoURL` the input rule would refuse is: not a URL, credentials in it, a bad port)
/// by ``keepingUsableProfile(_:)``, which every
/// adapter applies to the users it reads; refusing the answer would lock that account out
/// of every app built on this package.
public enum AnswerLimits {
  /// The longest token kept, in UTF-8 bytes: 16 KiB (16,384). Applies to ID tokens,
  /// refresh tokens, NCMB session tokens and phone verification IDs. Firebase ID tokens
  /// are about 1 KiB (custom claims are capped at 1000 bytes); the token verifier reads
  /// no longer token (`FirebaseTokenVerifier.maximumTokenBytes` is this constant).
  public static let maximumTokenBytes = 16 * 1024

  /// The longest phone number kept, in Unicode scalars: 16 (`+` and
  /// ``PhoneNumber/maximumDigits`` digits, E.164).
  public static let maximumPhoneNumberLength = 1 + PhoneNumber.maximumDigits

  /// Checks everything a backend is about to store.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming the first over-long field
  ///   (never its value).
  public static func check(_ state: PersistedAuthState) throws(UserBackendError) {
    if let session = state.session { try check(session) }
    if let pending = state.pendingPhoneVerification {
      try token(pending.verificationID, "phone verification ID")
    }
  }

  /// Checks a session's tokens (``maximumTokenBytes``) and user (``check(_:)-(User)``).
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming the field.
  public static func check(_ session: AuthSession) throws(UserBackendError) {
    try token(session.bearerToken, "bearer token (ID token or session token)")
    if let refreshToken = session.refreshToken { try token(refreshToken, "refresh token") }
    try check(session.user)
  }

  /// Checks a user's server-sent identifiers: `id` at most
  /// ``CredentialValidation/maximumUserIDLength``, `email`
  /// ``CredentialValidation/maximumEmailLength``, `username`
  /// ``CredentialValidation/maximumUsernameLength``, `phoneNumber`
  /// ``maximumPhoneNumberLength`` (all in Unicode scalars, as the user ID rule counts).
  /// The profile fields are not refused here (``keepingUsableProfile(_:)``
  /// drops over-long ones), so a stored session holding one still refreshes.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming the field.
  public static func check(_ user: User) throws(UserBackendError) {
    // Unicode scalars, as the user ID rule counts them (``CredentialValidation/userIDProblem(_:)``).
    guard CredentialValidation.limitedLength(user.id) <= CredentialValidation.maximumUserIDLength
    else {
      throw UserBackendError(
        .malformedResponse(
          reason:
            "the server's user ID is longer than \(CredentialValidation.maximumUserIDLength) characters"
        ))
    }
    try text(user.email, "email", CredentialValidation.maximumEmailLength)
    try text(user.username, "username", CredentialValidation.maximumUsernameLength)
    try text(user.phoneNumber, "phoneNumber", maximumPhoneNumberLength)
  }

  /// `user` with its display name and photo URL as the client keeps them
  /// (``usableDisplayName(_:)``, ``usablePhotoURL(_:)``): one the client would not keep is dropped.
  public static func keepingUsableProfile(_ user: User) -> User {
    var result = user
    result.displayName = usableDisplayName(user.displayName)
    result.photoURL = user.photoURL.flatMap { usablePhotoURL($0.absoluteString) }
    return result
  }

  /// A server's display name as the client keeps it: `nil` when absent, empty or longer
  /// than ``CredentialValidation/maximumDisplayNameLength`` Unicode scalars.
  public static func usableDisplayName(_ name: String?) -> String? {
    guard let name, !name.isEmpty,
      CredentialValidation.limitedLength(name) <= CredentialValidation.maximumDisplayNameLength
    else { return nil }
    return name
  }

  /// A server's photo URL as the client keeps it: `nil` when absent, empty, or not one
  /// ``CredentialValidation/validatePhotoURL(_:)`` accepts: longer than
  /// ``CredentialValidation/maximumPhotoURLLength`` Unicode scalars, not an absolute
  /// `http`/`https` URL, holding a user name or password (a credential shown to everyone
  /// who sees the profile), or with an unusable port (`:065`, `:`, `:99999`). Any client
  /// may store any text there (on NCMB it is an ordinary custom field), so such a value is
  /// dropped as an over-long one is, never kept nor printed.
  public static func usablePhotoURL(_ text: String?) -> URL? {
    guard let text, case .set(let checked)? = try? CredentialValidation.validatePhotoURL(text)
    else { return nil }
    return URL(string: checked)
  }

  private static func token(_ value: String, _ field: String) throws(UserBackendError) {
    guard value.utf8.count <= maximumTokenBytes else {
      throw UserBackendError(
        .malformedResponse(
          reason: "the server's \(field) is longer than \(maximumTokenBytes) bytes"))
    }
  }

  private static func text(_ value: String?, _ field: String, _ maximum: Int)
    throws(UserBackendError)
  {
    guard let value, CredentialValidation.limitedLength(value) > maximum else { return }
    throw UserBackendError(
      .malformedResponse(reason: "the server's \(field) is longer than \(maximum) characters"))
  }
}
