import Foundation

/// Query parameters and form fields that no rule names but that are called like a
/// credential (`?Token=…`, `api_key=…`, `oobCode=…`, `sig=…`): aliased as `<SECRET_n>` on
/// recording and import, and reported by the leak scan when stored in the clear.
///
/// The rule sets name what Firebase and NCMB send; a HAR file from an app also carries the
/// app's own parameters, which no rule set can list. Query parameters and form fields
/// cannot be allow-listed like headers (the request is matched on them), so their names
/// decide (ignoring case):
/// - a name containing `token`, `secret`, `passw`, `passcode`, `passphrase`, `apikey`,
///   `api_key`, `api-key`, `signature`, `session`, `credential` or `oobcode`;
/// - a name containing `auth` (`Authorization`, `X-Auth`, `oauth_verifier`,
///   `authenticity_token`), except where it begins the words `author` and `authority`
///   (`author`, `:authority`; `authoriz…` and `authoris…` still count) or Google's
///   `authuser` (`x-goog-authuser`: which signed-in account, `0`);
/// - a name with the word `key` or `pwd` in it, words split at `-`, `_`, `.`, `:` and
///   lower-to-upper case changes (`clientKey`, `X-Client-Key`, `subscription-key`,
///   `new_pwd`; not `monkey` or `keyword`);
/// - one of `key`, `sig`, `code`, `otp`, `pin`, `pwd`, `pass` exactly.
///
/// Two kinds of name match none of these although they hold a credential word: the OAuth
/// `token_type`/`tokenType` (`Bearer`, a public scheme name), and in a JSON body the exact
/// name `code`, which there is an error code replay reads (NCMB's `"code": "E404001"`;
/// Google's is a number) — the one JSON `code` that is a secret, Firebase's SMS code, has
/// its own rule.
///
/// The same names count in every encoding redaction and the leak scan read: JSON fields
/// (string values, at any depth), form fields, multipart parts, query parameters, request
/// header fields, and the query and fragment items of a URL held in any of those values.
///
/// Aliasing a harmless parameter costs a readable value; missing a credential stores it.
enum CredentialFieldNames {
  /// The alias label.
  static let label = "SECRET"

  private static let fragments = [
    "token", "secret", "passw", "passcode", "passphrase", "apikey", "api_key", "api-key",
    "signature", "session", "credential", "oobcode",
  ]
  private static let exactNames: Set<String> = ["key", "sig", "code", "otp", "pin", "pwd", "pass"]
  private static let words: Set<String> = ["key", "pwd"]
  private static let harmlessNames: Set<String> = ["token_type", "tokentype"]

  /// An alias rule for `name` when it is called like a credential, else `nil`.
  /// - Parameter inJSON: `true` for a JSON object key (where `code` is an error code).
  static func rule(for name: String, inJSON: Bool = false) -> RedactionRule? {
    let lower = name.lowercased()
    guard !harmlessNames.contains(lower), !(inJSON && lower == "code") else { return nil }
    guard
      exactNames.contains(lower) || fragments.contains(where: { lower.contains($0) })
        || namesAuth(lower) || !words.isDisjoint(with: Self.words(in: name))
    else { return nil }
    return .alias(name, label)
  }

  /// `true` when `lower` holds `auth` other than as the start of `author…` (but not
  /// `authoriz…`/`authoris…`) or `authuser`.
  private static func namesAuth(_ lower: String) -> Bool {
    var rest = Substring(lower)
    while let range = rest.range(of: "auth") {
      let after = rest[range.upperBound...]
      let harmless =
        after.hasPrefix("user")
        || (after.hasPrefix("or") && !after.hasPrefix("oriz") && !after.hasPrefix("oris"))
      if !harmless { return true }
      rest = after
    }
    return false
  }

  /// The lower-cased words of `name`: split at non-alphanumerics and where a lower-case
  /// letter or digit meets an upper-case one (`APIKey` is `api`, `key`).
  private static func words(in name: String) -> Set<String> {
    var result: Set<String> = []
    var word = ""
    var previous: Character?
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
      guard character.isLetter || character.isNumber else {
        if !word.isEmpty { result.insert(word.lowercased()) }
        word = ""
        previous = nil
        continue
      }
      if let previous, character.isUppercase {
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        let boundary =
          previous.isLowercase || previous.isNumber
          || (previous.isUppercase && next?.isLowercase == true)
        if boundary, !word.isEmpty {
          result.insert(word.lowercased())
          word = ""
        }
      }
      word.append(character)
      previous = character
    }
    if !word.isEmpty { result.insert(word.lowercased()) }
    return result
  }
}
