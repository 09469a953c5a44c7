import BackendHTTP
import Foundation

/// Replaces secrets in texts an answer supplied (error messages and codes), so that a
/// server or proxy quoting the request back never gets a password, token or key into an
/// error.
public enum SecretRedaction {
  /// The replacement for every secret.
  public static let placeholder = "<redacted>"

  /// `text` with every secret in `secrets` replaced by ``placeholder``, both as given and
  /// percent-encoded (`FormURLEncoding.escape`). Secrets shorter than 4 characters are
  /// left alone: replacing them would garble ordinary words and hide nothing worth hiding.
  public static func redact(_ text: String, secrets: [String]) -> String {
    var text = text
    // Longest first, so a secret that contains another is replaced whole.
    for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
      text = text.replacingOccurrences(of: secret, with: placeholder)
      let encoded = FormURLEncoding.escape(secret)
      if encoded != secret { text = text.replacingOccurrences(of: encoded, with: placeholder) }
    }
    return text
  }
}
