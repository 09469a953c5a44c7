import BackendHTTP
import FirebaseTokenVerification
import Foundation

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
  /// The `kid` of the tokens: a fresh random value per key.
  public let keyID: String
  /// The certificate of the public key, PEM.
  public var certificatePEM: String { key.certificatePEM }
  let key: RS256SigningKey

  /// Generates a key.
  /// - Throws: `RS256SigningKey.Unavailable` when OpenSSL cannot make one (or on Apple
  ///   platforms).
  public static func generate() throws -> FirebaseTokenSigning {
    let key = try RS256SigningKey.generate(commonName: "securetoken.system.gserviceaccount.com")
    let digest = Array(key.certificatePEM.utf8).reduce(into: UInt64(14_695_981_039_346_656_037)) {
      $0 = ($0 ^ UInt64($1)) &* 1_099_511_628_211
    }
    return FirebaseTokenSigning(keyID: String(digest, radix: 16), key: key)
  }

  /// A signed compact JWT of `claims`.
  func token(claims: [String: Any]) -> String { key.token(claims: claims, keyID: keyID) }

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
