/// Nonces for identity-provider sign-in (Sign in with Apple): the app sends
/// ``sha256Hex(_:)`` of a random raw nonce to the provider, which puts it in the ID
/// token's `nonce` claim; the backend receives the raw nonce and checks that they match.
public enum Nonce {
  /// The URL-safe alphabet (RFC 4648 base64url): 64 symbols, so each is equally likely.
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

  /// A random raw nonce of `length` characters from the URL-safe alphabet
  /// `A–Z a–z 0–9 - _`, drawn from `SystemRandomNumberGenerator` (6 bits per character,
  /// so the default 32 characters carry 192 bits). A `length` below 1 gives `""`.
  public static func random(length: Int = 32) -> String {
    var generator = SystemRandomNumberGenerator()
    return String(
      (0..<max(0, length)).map { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
      }
    )
  }

  /// SHA-256 of the raw nonce's UTF-8 bytes as 64 lower-case hex digits: the value the
  /// ID token's `nonce` claim must carry.
  public static func sha256Hex(_ rawNonce: String) -> String { Crypto.sha256Hex(rawNonce) }
}
