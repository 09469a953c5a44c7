import Foundation

#if !canImport(CryptoKit)
  import CCrypto

  /// HMAC-SHA256 through OpenSSL 3's `EVP_MAC` interface, with keyed contexts kept for
  /// reuse.
  ///
  /// The one-shot `HMAC()` of OpenSSL 3 looks up the HMAC and SHA-256 implementations in
  /// the provider registry and hashes the key on every call; for a short NCMB
  /// string-to-sign that was a sixth of the NCMB adapter's own sign-in work (`baas
  /// bench`). Here each key is set up once in a template context, and every call works on
  /// a copy of it (`EVP_MAC_CTX_dup`), so a call costs the hashing of the message only.
  /// The templates live in a small table keyed by the key bytes, for the life of the
  /// process (a client has one key, the emulator one per application). The table holds at
  /// most ``templateLimit`` keys: a key that finds it full gets `nil` here, and the caller
  /// the one-shot call, so a rotation through more keys costs what it cost before rather
  /// than thrashing the table. The copy is made under the table's lock, and no context is
  /// ever shared between two calls.
  enum HMACSHA256 {
    /// A context holding a key, ready to be copied.
    private final class Template: @unchecked Sendable {
      let context: OpaquePointer

      /// A context keyed with `key`, or `nil` when OpenSSL refuses.
      init?(key: Data) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { return nil }
        let initialised = "digest".withCString { name in
          "SHA256".withCString { digest in
            var parameters = [
              OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
              OSSL_PARAM_construct_end(),
            ]
            return key.withUnsafeBytes { keyBuffer in
              EVP_MAC_init(
                context, keyBuffer.bindMemory(to: UInt8.self).baseAddress, keyBuffer.count,
                &parameters)
            }
          }
        }
        guard initialised == 1 else {
          EVP_MAC_CTX_free(context)
          return nil
        }
        self.context = context
      }

      deinit { EVP_MAC_CTX_free(context) }
    }

    private static let templates = LockedValue<[Data: Template]>([:])
    /// The most keys kept.
    static let templateLimit = 16

    /// The authentication code (32 bytes); `nil` when OpenSSL fails or the key is new and
    /// the table full (the caller then uses the one-shot call).
    static func authenticationCode(key: Data, message: Data) -> Data? {
      let context: OpaquePointer? = templates.withLock { templates in
        if let template = templates[key] { return EVP_MAC_CTX_dup(template.context) }
        guard templates.count < templateLimit, let template = Template(key: key) else {
          return nil
        }
        templates[key] = template
        return EVP_MAC_CTX_dup(template.context)
      }
      guard let context else { return nil }
      defer { EVP_MAC_CTX_free(context) }
      let updated = message.withUnsafeBytes { buffer in
        EVP_MAC_update(context, buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count)
      }
      guard updated == 1 else { return nil }
      var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length = 0
      guard EVP_MAC_final(context, &output, &length, output.count) == 1 else { return nil }
      return Data(output.prefix(length))
    }
  }
#endif
