import Foundation

#if canImport(Security)
  import Security
#else
  import CCrypto
#endif

/// An RSA public key read from a PEM X.509 certificate, verifying RSASSA-PKCS1-v1_5 with
/// SHA-256 (JWT `RS256`).
///
/// Linux: OpenSSL (`PEM_read_bio_X509`, `X509_get_pubkey`, `EVP_DigestVerify`).
/// Apple platforms: Security (`SecCertificateCreateWithData`, `SecCertificateCopyKey`,
/// `SecKeyVerifySignature`); that branch is compiled on Apple platforms only.
/// The key is immutable after creation; OpenSSL allows concurrent verifications with one
/// `EVP_PKEY` (each call has its own digest context), hence `@unchecked Sendable`.
package final class RS256PublicKey: @unchecked Sendable {
  /// The smallest accepted modulus, in bits.
  package static let minimumBits = 2048

  #if canImport(Security)
    private let key: SecKey

    /// The key of the certificate in `pem`; `nil` when it is not a PEM X.509 certificate
    /// holding an RSA key of at least ``minimumBits`` bits.
    package init?(certificatePEM pem: String) {
      let body = pem.split(whereSeparator: \.isNewline)
        .filter { !$0.hasPrefix("-----") }.joined()
      guard pem.contains("-----BEGIN CERTIFICATE-----"),
        let der = Data(base64Encoded: String(body)),
        let certificate = SecCertificateCreateWithData(nil, der as CFData),
        let key = SecCertificateCopyKey(certificate),
        let attributes = SecKeyCopyAttributes(key) as? [String: Any],
        attributes[kSecAttrKeyType as String] as? String == (kSecAttrKeyTypeRSA as String),
        (attributes[kSecAttrKeySizeInBits as String] as? Int ?? 0) >= Self.minimumBits
      else { return nil }
      self.key = key
    }

    /// `true` when `signature` is a valid RS256 signature of `message`.
    package func verify(signature: Data, message: Data) -> Bool {
      SecKeyVerifySignature(
        key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, signature as CFData, nil)
    }
  #else
    private let key: OpaquePointer

    /// The key of the certificate in `pem`; `nil` when it is not a PEM X.509 certificate
    /// holding an RSA key of at least ``minimumBits`` bits.
    package init?(certificatePEM pem: String) {
      let bytes = Array(pem.utf8)
      guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
      let parsed: OpaquePointer? = bytes.withUnsafeBytes { raw in
        guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
          ERR_clear_error()
          return nil
        }
        defer { X509_free(certificate) }
        return X509_get_pubkey(certificate)
      }
      guard let parsed else { return nil }
      guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA,
        EVP_PKEY_get_bits(parsed) >= Int32(Self.minimumBits)
      else {
        EVP_PKEY_free(parsed)
        return nil
      }
      self.key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// `true` when `signature` is a valid RS256 signature of `message`.
    package func verify(signature: Data, message: Data) -> Bool {
      guard !signature.isEmpty, let context = EVP_MD_CTX_new() else { return false }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
      // PKCS#1 v1.5 is the default RSA padding of EVP_DigestVerify.
      let result = signature.withUnsafeBytes { signatureBytes in
        message.withUnsafeBytes { messageBytes in
          EVP_DigestVerify(
            context,
            signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
            messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count)
        }
      }
      // Leave no failure on this thread's OpenSSL error queue.
      if result != 1 { ERR_clear_error() }
      return result == 1
    }
  #endif
}
