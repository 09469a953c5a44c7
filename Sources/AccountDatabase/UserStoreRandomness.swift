import Foundation
import UserBackendKit

/// Where a ``UserStore`` draws the identifiers it hands out: account IDs (UUIDs), phone
/// verification IDs and SMS codes, and the emulator's generated user names.
///
/// ``system`` (the default) uses `SystemRandomNumberGenerator`. ``seeded(_:)`` makes the
/// sequence reproducible, so that a recording against the emulator produces the same
/// cassette twice. Secrets (refresh and session tokens, password salts) never come from
/// here: they always use the system generator.
public struct UserStoreRandomness: Sendable {
  private let seeded: SeededGenerator?

  private init(seeded: SeededGenerator?) { self.seeded = seeded }

  /// The system generator (unpredictable; the default).
  public static let system = UserStoreRandomness(seeded: nil)

  /// A reproducible sequence (SplitMix64) starting from `seed`: the same seed and the same
  /// calls in the same order give the same values. Not for production: identifiers
  /// become predictable.
  public static func seeded(_ seed: UInt64) -> UserStoreRandomness {
    UserStoreRandomness(seeded: SeededGenerator(seed: seed))
  }

  /// Whether the values are reproducible (``seeded(_:)``).
  public var isSeeded: Bool { seeded != nil }

  /// `count` random bytes (`count` ≥ 0).
  public func bytes(_ count: Int) -> Data {
    guard let seeded else { return Crypto.randomBytes(count) }
    return seeded.bytes(max(0, count))
  }

  /// A random version-4 UUID.
  public func uuid() -> UUID {
    guard seeded != nil else { return UUID() }
    var raw = [UInt8](bytes(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9],
        raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
      ))
  }

  /// A uniformly distributed integer in `range` (which must not be empty; an empty range
  /// answers its lower bound).
  public func int(in range: Range<Int>) -> Int {
    guard !range.isEmpty else { return range.lowerBound }
    guard let seeded else {
      var generator = SystemRandomNumberGenerator()
      return Int.random(in: range, using: &generator)
    }
    return seeded.int(in: range)
  }
}

/// SplitMix64 behind a lock (the store is used from many threads).
private final class SeededGenerator: Sendable {
  private let state: LockedValue<SplitMix64>

  init(seed: UInt64) { state = LockedValue(SplitMix64(state: seed)) }

  func bytes(_ count: Int) -> Data {
    state.withLock { generator in
      var data = Data(capacity: count)
      while data.count < count {
        var word = generator.next()
        for _ in 0..<min(8, count - data.count) {
          data.append(UInt8(truncatingIfNeeded: word))
          word >>= 8
        }
      }
      return data
    }
  }

  func int(in range: Range<Int>) -> Int {
    state.withLock { generator in Int.random(in: range, using: &generator) }
  }
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014): a 64-bit state advanced by a
/// constant and mixed; fine for reproducible test identifiers, not for secrets.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
