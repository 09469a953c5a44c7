import Foundation
import UserBackendKit

/// Turns NCMB user objects into portable ``User`` values.
///
/// - `id` = `objectId`, `username` = `userName`, `email` = `mailAddress` (`null` is no
///   email, whatever the request sent).
/// - `providers`: `"password"` when the account has a password identity, plus one entry
///   per non-null `authData` key: `anonymous` → `"anonymous"`, `apple` → `"apple.com"`,
///   `facebook` / `twitter` / `google` → `"<key>.com"`, any other key as is; sorted, and
///   `"anonymous"` only when it is the only one (``providers(_:)``).
/// - `isAnonymous`: the only provider is `"anonymous"`.
/// - `emailVerified` = `mailAddressConfirm`; `createdAt` = `createDate` (ISO 8601; an
///   unreadable one is `nil`: it is informational and must not fail a sign-in);
///   `displayName` and `photoURL` from the custom user fields of the same names (NCMB has
///   no profile fields of its own; ``NCMBUserBackend/updateProfile(displayName:photoURL:)``
///   writes them); a `photoURL` that is not a URL is `nil`, and either one over the
///   client's limit is `nil` (``UserBackendKit/AnswerLimits/keepingUsableProfile(_:)``:
///   any NCMB client may store any length there, and the account must still sign in).
enum NCMBUserMapping {
  /// The provider ID for an `authData` key.
  static func provider(forAuthDataKey key: String) -> String {
    switch key {
    case "anonymous": "anonymous"
    case "apple", "facebook", "twitter", "google": key + ".com"
    default: key
    }
  }

  /// The portable provider list: each provider once, sorted, and `"anonymous"` only while
  /// it is the account's only identity. An NCMB account upgraded from a guest may keep its
  /// `authData.anonymous` entry (the service leaves it; the emulator drops it), but it is a
  /// password account now, as Firebase lists it: so the link's answer, a reload and a later
  /// sign-in all list the same providers whichever server answers.
  static func providers(_ providers: [String]) -> [String] {
    var unique = Set(providers)
    if unique.count > 1 { unique.remove("anonymous") }
    return unique.sorted()
  }

  /// The user for a response.
  ///
  /// - Parameters:
  ///   - response: the server's user object.
  ///   - hasPasswordIdentity: whether the account signs in with a password (known from
  ///     the flow: sign-up / sign-in with a password, or a fetched user with no `authData`).
  ///   - sentUserName: the `userName` the request sent, used when the answer omits it.
  ///   - sentMailAddress: the `mailAddress` the request sent (or the stored user's, for a
  ///     reload), used only when the answer has no `mailAddress` member (sign-up answers
  ///     carry only `objectId`, `userName`, `sessionToken`, `createDate`). An explicit
  ///     `null` is an account without a mail address: a user name that looks like the
  ///     address signed in with (`userName` and the address share one namespace, as
  ///     this adapter signs email accounts up with the address as `userName`) is no email.
  static func user(
    from response: NCMBUserResponse, hasPasswordIdentity: Bool, sentUserName: String? = nil,
    sentMailAddress: String? = nil
  ) -> User {
    var keys = (response.authData?.keys).map(Array.init) ?? []
    keys = keys.map(provider(forAuthDataKey:))
    let providers = Self.providers(keys + (hasPasswordIdentity ? ["password"] : []))
    return User(
      id: response.objectId,
      email: response.hasMailAddressMember ? response.mailAddress : sentMailAddress,
      username: response.userName ?? sentUserName,
      displayName: AnswerLimits.usableDisplayName(response.displayName),
      providers: providers,
      isAnonymous: providers == ["anonymous"],
      emailVerified: response.mailAddressConfirm,
      photoURL: AnswerLimits.usablePhotoURL(response.photoURL),
      createdAt: response.createDate.flatMap(date(fromISO8601:)))
  }

  /// An NCMB date (`2013-08-28T11:27:16.446Z`; fractional seconds optional, `Z` or an
  /// offset), or `nil`. Read with the port's RFC 3339 reader (``DocumentTimestamp``), the
  /// one the document layer uses: Foundation's `ISO8601FormatStyle` cost a tenth of the
  /// NCMB adapter's own sign-in work (`baas bench`).
  static func date(fromISO8601 text: String) -> Date? {
    DocumentTimestamp.parse(text)
  }
}
