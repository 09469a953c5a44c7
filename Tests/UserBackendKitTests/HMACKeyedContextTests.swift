import Foundation
import Testing
@testable import UserBackendKit

#if canImport(CCrypto)
  import CCrypto
#endif

/// `Crypto.hmacSHA256` keeps a keyed OpenSSL context per key (at most 16; a new key that
/// finds the table full takes the one-shot call) and copies it per call. These pin it to known answers and, on Linux,
/// to OpenSSL's one-shot `HMAC()` it replaced: every key length around the SHA-256 block
/// (64 bytes), every message length up to 300, more keys than the table holds, and many
/// tasks at once.
@Suite(.timeLimit(.minutes(1))) struct HMACKeyedContextTests {
  /// `count` bytes that differ with `seed`.
  static func bytes(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ 1) }
  }

  #if canImport(CCrypto)
    /// OpenSSL's one-shot `HMAC()`, as `Crypto.hmacSHA256` called it before.
    static func oneShot(key: [UInt8], message: [UInt8]) -> Data {
      var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      key.withUnsafeBytes { keyBuffer in
        message.withUnsafeBytes { messageBuffer in
          _ = HMAC(
            EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
            messageBuffer.bindMemory(to: UInt8.self).baseAddress, messageBuffer.count,
            &output, &length)
        }
      }
      return Data(output.prefix(Int(length)))
    }

    @Test(arguments: [0, 1, 32, 63, 64, 65, 131, 200])
    func equalsTheOneShotForEveryMessageLength(keyLength: Int) {
      let key = Self.bytes(keyLength, seed: keyLength)
      for messageLength in 0...300 {
        let message = Self.bytes(messageLength, seed: messageLength + 3)
        let expected = Self.oneShot(key: key, message: message)
        #expect(expected.count == 32)
        #expect(
          Crypto.hmacSHA256(key: key, message: message) == expected,
          "key \(keyLength) bytes, message \(messageLength) bytes")
      }
    }

    /// Keys given as slices of a larger buffer (an index that does not start at zero)
    /// and as arrays key the same context as the same bytes in a fresh `Data`.
    @Test func keySlicesAndArraysGiveTheSameCode() {
      let buffer = Data(Self.bytes(100, seed: 9))
      let message = Self.bytes(40, seed: 2)
      let slice = buffer[5..<37]
      let expected = Self.oneShot(key: Array(slice), message: message)
      #expect(Crypto.hmacSHA256(key: slice, message: message) == expected)
      #expect(Crypto.hmacSHA256(key: Array(slice), message: message) == expected)
      #expect(Crypto.hmacSHA256(key: Data(slice), message: Data(message)) == expected)
      #expect(Crypto.hmacSHA256(key: Data(slice), message: buffer[60..<100]) != expected)
      #expect(
        Crypto.hmacSHA256(key: Data(slice), message: buffer[60..<100])
          == Self.oneShot(key: Array(slice), message: Array(buffer[60..<100])))
    }
  #endif

  /// HMAC-SHA256 of `message` under `key`, from Python's `hmac` (an implementation
  /// independent of OpenSSL).
  @Test(
    arguments: [
      (
        [UInt8](), [UInt8](),
        "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"
      ),
      // RFC 4231 test case 3.
      (
        [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
      ),
      // RFC 4231 test case 4.
      (
        Array(1...25), [UInt8](repeating: 0xcd, count: 50),
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
      ),
      // RFC 4231 test case 6.
      (
        [UInt8](repeating: 0xaa, count: 131),
        Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
      ),
      // RFC 4231 test case 7.
      (
        [UInt8](repeating: 0xaa, count: 131),
        Array(
          ("This is a test using a larger than block-size key and a larger than block-size "
            + "data. The key needs to be hashed before being used by the HMAC algorithm.").utf8),
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
      ),
    ] as [([UInt8], [UInt8], String)])
  func knownAnswers(key: [UInt8], message: [UInt8], expected: String) {
    #expect(hex(Crypto.hmacSHA256(key: key, message: message)) == expected)
    // Twice: the second call works on a copy of the kept context.
    #expect(hex(Crypto.hmacSHA256(key: key, message: message)) == expected)
  }

  /// Forty keys in turn, three times round: the table of keyed contexts fills, the keys
  /// past it take the one-shot call, and every code stays right, including for a key seen
  /// long before.
  @Test func moreKeysThanTheTableHolds() {
    let keys = (0..<40).map { Self.bytes(16 + $0, seed: 100 + $0) }
    let message = Array("POST\nmbaas.api.nifcloud.com\n/2013-09-01/login\nparams".utf8)
    let first = keys.map { Crypto.hmacSHA256(key: $0, message: message) }
    #expect(Set(first).count == keys.count)
    for round in 0..<3 {
      for (index, key) in keys.enumerated() {
        #expect(Crypto.hmacSHA256(key: key, message: message) == first[index], "round \(round)")
        #if canImport(CCrypto)
          #expect(first[index] == Self.oneShot(key: key, message: message))
        #endif
      }
      // A key used between every other one stays right as the table turns over.
      #expect(Crypto.hmacSHA256(key: keys[0], message: message) == first[0])
    }
  }

  #if canImport(CCrypto)
    /// Once the table is full, a new key is not added (a rotation through more keys than
    /// it holds would otherwise rebuild a context on every call, slower than the one-shot
    /// call it replaced) and is still answered right.
    @Test func aFullTableTakesNoNewKey() {
      let message = Array("GET\nhost\n/path\nparams".utf8)
      let keys = (0..<(HMACSHA256.templateLimit + 4)).map { Self.bytes(40, seed: 9_000 + $0) }
      for key in keys { _ = Crypto.hmacSHA256(key: key, message: message) }
      let fresh = Data(Self.bytes(40, seed: 9_999))
      #expect(HMACSHA256.authenticationCode(key: fresh, message: Data(message)) == nil)
      #expect(
        Crypto.hmacSHA256(key: fresh, message: message)
          == Self.oneShot(key: Array(fresh), message: message))
    }
  #endif

  /// 64 tasks with four keys between them, each computing many codes: no two calls share
  /// a context, so every code is right.
  @Test func concurrentCallsWithFourKeys() async {
    let keys = (0..<4).map { Self.bytes(20 + 30 * $0, seed: $0) }
    let messages = (0..<16).map { Self.bytes(10 * $0, seed: 50 + $0) }
    var expected: [[Data]] = []
    for key in keys {
      #if canImport(CCrypto)
        expected.append(messages.map { Self.oneShot(key: key, message: $0) })
      #else
        expected.append(messages.map { Crypto.hmacSHA256(key: key, message: $0) })
      #endif
    }
    let table = expected
    let wrong = await withTaskGroup(of: Int.self) { group in
      for task in 0..<64 {
        group.addTask {
          var wrong = 0
          for round in 0..<50 {
            let keyIndex = (task + round) % keys.count
            let messageIndex = (task * 7 + round) % messages.count
            let code = Crypto.hmacSHA256(key: keys[keyIndex], message: messages[messageIndex])
            if code != table[keyIndex][messageIndex] { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
  }
}
