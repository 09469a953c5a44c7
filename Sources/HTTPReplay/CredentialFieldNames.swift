import Foundation

/// Query parameters and form fields that no rule names but that are called like a
/// credential (`?Token=…`, `api_key=…`, `oobCode=…`, `sig=…`): aliased as `<SECRET_n>` on
/// recording and import, and reported by the leak scan when stored in the clear.
///
/// The rule sets name what Firebase and NCMB send; a HAR file from an app also carries the
/// app's own parameters, which no rule set can list. Query parameters and form fields
/// cannot be allow-listed like headers (the request is matched on them), so their names
/// decide: a name containing `token`, `secret`, `passw`, `apikey`/`api_key`/`api-key`,
/// `signature`, `session`, `credential`, `auth` or `oobcode`, or one of `key`, `sig`,
/// `code`, `otp`, `pin` exactly (ignoring case). Aliasing a harmless parameter costs a
/// readable value; missing a credential stores it.
enum CredentialFieldNames {
  /// The alias label.
  static let label = "SECRET"

  private static let fragments = [
    "token", "secret", "passw", "apikey", "api_key", "api-key", "signature", "session",
    "credential", "auth", "oobcode",
  ]
  private static let exactNames: Set<String> = ["key", "sig", "code", "otp", "pin"]

  /// An alias rule for `name` when it is called like a credential, else `nil`.
  static func rule(for name: String) -> RedactionRule? {
    let lower = name.lowercased()
    guard exactNames.contains(lower) || fragments.contains(where: { lower.contains($0) })
    else { return nil }
    return .alias(name, label)
  }
}
