import Foundation
import UserBackendKit

/// Turns NCMB user objects into portable ``User`` values.
///
/// - `id` = `objectId`, `username` = `userName`, `email` = `mailAddress`.
/// - `providers`: `"password"` when the account has a password identity, plus one entry
///   per non-null `authData` key: `anonymous` → `"anonymous"`, `apple` → `"apple.com"`,
///   `facebook` / `twitter` / `google` → `"<key>.com"`, any other key as is.
/// - `isAnonymous`: the only provider is `"anonymous"`.
/// - `emailVerified` = `mailAddressConfirm`; `createdAt` = `createDate` (ISO 8601; an
///   unreadable one is `nil`: it is informational and must not fail a sign-in);
///   `displayName` and `photoURL` from the custom user fields of the same names (NCMB has
///   no profile fields of its own; ``NCMBUserBackend/updateProfile(displayName:photoURL:)``
///   writes them); a `photoURL` that is not a URL is `nil`.
enum NCMBUserMapping {
  /// The provider ID for an `authData` key.
  static func provider(forAuthDataKey key: String) -> String {
    switch key {
    case "anonymous": "anonymous"
    case "apple", "facebook", "twitter", "google": key + ".com"
    default: key
    }
  }

  /// The user for a response.
  ///
  /// - Parameters:
  ///   - response: the server's user object.
  ///   - hasPasswordIdentity: whether the account signs in with a password (known from
  ///     the flow: sign-up / sign-in with a password, or a fetched user with no `authData`).
  ///   - sentUserName: the `userName` the request sent, used when the answer omits it.
  ///   - sentMailAddress: the `mailAddress` the request sent, used when the answer omits it
  ///     (sign-up answers carry only `objectId`, `userName`, `sessionToken`, `createDate`).
  static func user(
    from response: NCMBUserResponse, hasPasswordIdentity: Bool, sentUserName: String? = nil,
    sentMailAddress: String? = nil
  ) -> User {
    var providers = Set((response.authData?.keys ?? []).map(provider(forAuthDataKey:)))
    if hasPasswordIdentity { providers.insert("password") }
    return User(
      id: response.objectId,
      email: response.mailAddress ?? sentMailAddress,
      username: response.userName ?? sentUserName,
      displayName: response.displayName.flatMap { $0.isEmpty ? nil : $0 },
      providers: Array(providers),
      isAnonymous: providers == ["anonymous"],
      emailVerified: response.mailAddressConfirm,
      photoURL: response.photoURL.flatMap { $0.isEmpty ? nil : URL(string: $0) },
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
