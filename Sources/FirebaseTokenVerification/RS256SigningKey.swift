import Foundation
import UserBackendKit

#if !canImport(Security)
  import CCrypto
#endif

/// A freshly generated RSA-2048 key pair with a self-signed X.509 certificate, signing
/// RS256: what `baas emulator --sign-tokens` signs ID tokens with and tests make tokens
/// with. OpenSSL only (Linux); on Apple platforms ``generate(commonName:validFor:)``
/// throws ``Unavailable``.
package final class RS256SigningKey: @unchecked Sendable {
  /// Key generation is not implemented on this platform.
  package struct Unavailable: Error, CustomStringConvertible {
    /// What failed.
    package var description: String
  }

  /// The certificate of the public key, PEM (`-----BEGIN CERTIFICATE-----`).
  package let certificatePEM: String

  #if canImport(Security)
    private init() { certificatePEM = "" }

    /// Always throws on Apple platforms.
    /// - Throws: ``Unavailable``.
    package static func generate(
      commonName: String = "securetoken", validFor seconds: Int = 86_400
    ) throws(Unavailable) -> RS256SigningKey {
      throw Unavailable(description: "RS256 key generation needs OpenSSL (Linux)")
    }

    /// Never reached on Apple platforms.
    package func sign(_ message: Data) -> Data { Data() }
  #else
    private let key: OpaquePointer

    private init(key: OpaquePointer, certificatePEM: String) {
      self.key = key
      self.certificatePEM = certificatePEM
    }

    deinit { EVP_PKEY_free(key) }

    /// Generates a 2048-bit RSA key (`EVP_PKEY_keygen`) and a self-signed certificate
    /// (`CN=<commonName>`, valid from now for `seconds`, signed with SHA-256).
    /// - Throws: ``Unavailable`` when OpenSSL fails.
    package static func generate(
      commonName: String = "securetoken", validFor seconds: Int = 86_400
    ) throws(Unavailable) -> RS256SigningKey {
      guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else {
        throw Unavailable(description: "EVP_PKEY_CTX_new_id failed")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var generated: OpaquePointer?
      guard EVP_PKEY_keygen_init(context) == 1,
        EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1,
        EVP_PKEY_keygen(context, &generated) == 1, let key = generated
      else {
        ERR_clear_error()
        throw Unavailable(description: "RSA key generation failed")
      }
      guard let pem = selfSignedCertificate(key: key, commonName: commonName, seconds: seconds)
      else {
        EVP_PKEY_free(key)
        ERR_clear_error()
        throw Unavailable(description: "creating the self-signed certificate failed")
      }
      return RS256SigningKey(key: key, certificatePEM: pem)
    }

    private static func selfSignedCertificate(
      key: OpaquePointer, commonName: String, seconds: Int
    ) -> String? {
      guard let certificate = X509_new() else { return nil }
      defer { X509_free(certificate) }
      guard X509_set_version(certificate, 2) == 1,
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(time(nil))) == 1,
        X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil,
        X509_gmtime_adj(X509_getm_notAfter(certificate), seconds) != nil,
        X509_set_pubkey(certificate, key) == 1,
        let name = X509_get_subject_name(certificate),
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
        X509_set_issuer_name(certificate, name) == 1,
        X509_sign(certificate, key, EVP_sha256()) > 0,
        let bio = BIO_new(BIO_s_mem())
      else { return nil }
      defer { BIO_free(bio) }
      guard PEM_write_bio_X509(bio, certificate) == 1 else { return nil }
      let length = Int(BIO_ctrl_pending(bio))
      var bytes = [UInt8](repeating: 0, count: length)
      guard BIO_read(bio, &bytes, Int32(length)) == Int32(length) else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }

    /// The RS256 signature (RSASSA-PKCS1-v1_5, SHA-256) of `message`; empty if OpenSSL
    /// fails (which a verifier then refuses).
    package func sign(_ message: Data) -> Data {
      guard let context = EVP_MD_CTX_new() else { return Data() }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return Data() }
      var length = 0
      let ok = message.withUnsafeBytes { raw -> Bool in
        let base = raw.bindMemory(to: UInt8.self).baseAddress
        guard EVP_DigestSign(context, nil, &length, base, raw.count) == 1 else { return false }
        return true
      }
      guard ok, length > 0 else { return Data() }
      var signature = [UInt8](repeating: 0, count: length)
      let signed = message.withUnsafeBytes { raw in
        EVP_DigestSign(
          context, &signature, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
      }
      guard signed == 1 else {
        ERR_clear_error()
        return Data()
      }
      return Data(signature.prefix(length))
    }
  #endif

  /// A compact RS256 JWT of `claims` (JSON object, sorted keys) with header
  /// `{"alg":"RS256","kid":<keyID>,"typ":"JWT"}`.
  package func token(claims: [String: Any], keyID: String) -> String {
    let header: [String: Any] = ["alg": "RS256", "kid": keyID, "typ": "JWT"]
    let headerData =
      (try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data()
    let claimsData =
      (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
    let signingInput = Base64URL.encode(headerData) + "." + Base64URL.encode(claimsData)
    return signingInput + "." + Base64URL.encode(sign(Data(signingInput.utf8)))
  }
}
