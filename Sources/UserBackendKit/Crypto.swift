import Foundation

#if canImport(CryptoKit)
  import CryptoKit
  import CommonCrypto
#else
  import CCrypto
#endif

/// SHA-256, HMAC-SHA256, PBKDF2-HMAC-SHA256 and random bytes from the platform's
/// cryptography library: OpenSSL libcrypto on Linux, CryptoKit / CommonCrypto on Apple
/// platforms. Nothing here is hand-written cryptography.
package enum Crypto {
  /// SHA-256 of `data` (32 bytes).
  package static func sha256(_ data: some DataProtocol) -> Data {
    #if canImport(CryptoKit)
      return Data(SHA256.hash(data: Data(data)))
    #else
      let input = Data(data)
      var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
      input.withUnsafeBytes { buffer in
        _ = SHA256(buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count, &digest)
      }
      return Data(digest)
    #endif
  }

  /// SHA-256 of the UTF-8 bytes of `text`, as 64 lower-case hex digits.
  package static func sha256Hex(_ text: String) -> String {
    sha256(Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// HMAC-SHA256 of `message` under `key` (32 bytes).
  package static func hmacSHA256(key: some DataProtocol, message: some DataProtocol) -> Data {
    #if canImport(CryptoKit)
      let code = HMAC<SHA256>.authenticationCode(
        for: Data(message), using: SymmetricKey(data: Data(key)))
      return Data(code)
    #else
      let keyData = Data(key)
      let messageData = Data(message)
      if let code = HMACSHA256.authenticationCode(key: keyData, message: messageData) {
        return code
      }
      // No keyed context for this key (the table is full, or OpenSSL could not set one
      // up): the one-shot call.
      var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      keyData.withUnsafeBytes { keyBuffer in
        messageData.withUnsafeBytes { messageBuffer in
          _ = HMAC(
            EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
            messageBuffer.bindMemory(to: UInt8.self).baseAddress, messageBuffer.count,
            &output, &length)
        }
      }
      return Data(output.prefix(Int(length)))
    #endif
  }

  /// PBKDF2-HMAC-SHA256 of `password` with `salt` and `iterations` rounds.
  ///
  /// - Parameter length: the derived key length in bytes (default 32).
  package static func pbkdf2SHA256(
    password: some DataProtocol, salt: some DataProtocol, iterations: Int, length: Int = 32
  ) -> Data {
    precondition(iterations > 0 && length > 0, "PBKDF2 needs iterations > 0 and length > 0")
    let passwordData = Data(password)
    let saltData = Data(salt)
    var output = [UInt8](repeating: 0, count: length)
    #if canImport(CryptoKit)
      passwordData.withUnsafeBytes { passwordBuffer in
        saltData.withUnsafeBytes { saltBuffer in
          _ = CCKeyDerivationPBKDF(
            CCPBKDFAlgorithm(kCCPBKDF2),
            passwordBuffer.bindMemory(to: CChar.self).baseAddress, passwordBuffer.count,
            saltBuffer.bindMemory(to: UInt8.self).baseAddress, saltBuffer.count,
            CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), UInt32(iterations),
            &output, length)
        }
      }
    #else
      passwordData.withUnsafeBytes { passwordBuffer in
        saltData.withUnsafeBytes { saltBuffer in
          _ = PKCS5_PBKDF2_HMAC(
            passwordBuffer.bindMemory(to: CChar.self).baseAddress, Int32(passwordBuffer.count),
            saltBuffer.bindMemory(to: UInt8.self).baseAddress, Int32(saltBuffer.count),
            Int32(iterations), EVP_sha256(), Int32(length), &output)
        }
      }
    #endif
    return Data(output)
  }

  /// `count` bytes from the system's cryptographically secure generator
  /// (`SystemRandomNumberGenerator`).
  package static func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// Compares two byte strings in time that depends only on their lengths.
  package static func constantTimeEquals(_ lhs: some DataProtocol, _ rhs: some DataProtocol) -> Bool
  {
    let a = Array(lhs)
    let b = Array(rhs)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}
