import BackendHTTP
import FirebaseTokenVerification
import Foundation
import UserBackendKit

/// RS256 signing of the emulator's ID tokens (`baas emulator --sign-tokens`), so a server
/// can run the full signature check of ``FirebaseTokenVerification/FirebaseTokenVerifier``
/// offline.
///
/// A 2048-bit RSA key and a self-signed certificate are generated with OpenSSL when this
/// value is made (Linux; on Apple platforms ``generate()`` throws). ID tokens then carry
/// `{"alg":"RS256","kid":<keyID>}`, and the certificate is served at Google's path shape,
/// `GET /robot/v1/metadata/x509/securetoken@system.gserviceaccount.com` (also under the
/// `/www.googleapis.com` prefix), as a JSON object `{keyID: PEM}` with
/// `Cache-Control: public, max-age=3600`.
public struct FirebaseTokenSigning: Sendable {
  /// The `kid` of the tokens: 40 hex digits of the certificate's SHA-256.
  public let keyID: String
  /// The certificate of the public key, PEM.
  public var certificatePEM: String { key.certificatePEM }
  let key: RS256SigningKey
  /// The certificate's public key, for checking ID tokens clients send back.
  let publicKey: RS256PublicKey?

  /// Generates a key.
  /// - Throws: `RS256SigningKey.Unavailable` when OpenSSL cannot make one (or on Apple
  ///   platforms).
  public static func generate() throws -> FirebaseTokenSigning {
    let key = try RS256SigningKey.generate(commonName: "securetoken.system.gserviceaccount.com")
    // Like Google's key IDs: 40 hex digits, here the certificate's SHA-256 prefix.
    let keyID = String(Crypto.sha256Hex(key.certificatePEM).prefix(40))
    return FirebaseTokenSigning(
      keyID: keyID, key: key, publicKey: RS256PublicKey(certificatePEM: key.certificatePEM))
  }

  /// A signed compact JWT of `claims`.
  func token(claims: [String: Any]) -> String { key.token(claims: claims, keyID: keyID) }

  /// `true` when `token` is a compact JWT signed by this key: header `alg` `RS256` and
  /// `kid` ``keyID``, and a valid RS256 signature over its first two segments. An
  /// unsigned (`alg: none`) or forged token is `false`, and so is a respelling of a signed
  /// one: the segments are read with the strict ``UserBackendKit/Base64URL/decode(_:)``
  /// (no padding, no `+` or `/`, zero unused bits), so a token has one accepted spelling.
  func signed(_ token: String) -> Bool {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let publicKey, let headerData = Base64URL.decode(parts[0]),
      let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
      header["alg"] as? String == "RS256", header["kid"] as? String == keyID,
      let signature = Base64URL.decode(parts[2]), !signature.isEmpty
    else { return false }
    return publicKey.verify(signature: signature, message: Data("\(parts[0]).\(parts[1])".utf8))
  }

  /// The certificate document.
  var certificatesResponse: HTTPResponse {
    let body =
      (try? JSONSerialization.data(
        withJSONObject: [keyID: certificatePEM], options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
    return HTTPResponse(
      status: 200,
      headerFields: [
        "Content-Type": "application/json; charset=UTF-8",
        "Cache-Control": "public, max-age=3600",
      ], body: body)
  }
}
