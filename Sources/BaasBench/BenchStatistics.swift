import Dispatch
import Foundation

/// Order statistics over repeated measurements of one quantity: the median, the 10th and
/// 90th percentiles (linear interpolation between closest ranks) and the median absolute
/// deviation. Units are whatever the samples are in (the caller names them).
struct BenchStatistics: Sendable, Hashable {
  /// The samples, sorted ascending.
  let sorted: [Double]

  /// Statistics over `samples`; `nil` when there are none or one is not finite.
  init?(_ samples: [Double]) {
    guard !samples.isEmpty, samples.allSatisfy(\.isFinite) else { return nil }
    sorted = samples.sorted()
  }

  /// The number of samples.
  var count: Int { sorted.count }
  /// The median (the 50th percentile).
  var median: Double { percentile(50) }
  /// The 10th percentile.
  var p10: Double { percentile(10) }
  /// The 90th percentile.
  var p90: Double { percentile(90) }
  /// The smallest sample.
  var minimum: Double { sorted[0] }
  /// The largest sample.
  var maximum: Double { sorted[sorted.count - 1] }

  /// The median absolute deviation from the median (same unit as the samples).
  var medianAbsoluteDeviation: Double {
    let center = median
    return Self.percentile(50, ofSorted: sorted.map { abs($0 - center) }.sorted())
  }

  /// The `p`th percentile, `p` in `0...100` (clamped).
  func percentile(_ p: Double) -> Double { Self.percentile(p, ofSorted: sorted) }

  /// The `p`th percentile (`0...100`, clamped) of ascending `values`, interpolating
  /// linearly between the two closest ranks; `0` for no values.
  static func percentile(_ p: Double, ofSorted values: [Double]) -> Double {
    guard let first = values.first else { return 0 }
    guard values.count > 1 else { return first }
    let rank = min(max(p, 0), 100) / 100 * Double(values.count - 1)
    let lower = Int(rank.rounded(.down))
    let upper = min(lower + 1, values.count - 1)
    let fraction = rank - Double(lower)
    return values[lower] + (values[upper] - values[lower]) * fraction
  }
}

/// A ratio with an optional upper target, e.g. adapter/direct ≤ 1.10.
struct BenchRatio: Sendable, Hashable {
  /// What is divided by what, e.g. `"Firebase sign-in / direct"`.
  let name: String
  /// The ratio (dimensionless); `nil` when it could not be computed.
  let value: Double?
  /// The largest acceptable value, or `nil` when the ratio is informational.
  let target: Double?

  /// `numerator / denominator`; `nil` when either is missing or the denominator is not
  /// positive.
  init(name: String, numerator: Double?, denominator: Double?, target: Double? = nil) {
    self.name = name
    self.target = target
    if let numerator, let denominator, denominator > 0, numerator.isFinite {
      value = numerator / denominator
    } else {
      value = nil
    }
  }

  /// The median of the per-run ratios `numerators[i] / denominators[i]`, for two
  /// variants timed interleaved in the same runs: pairing each run's two figures cancels
  /// what changes between runs (load from other processes), which the ratio of two
  /// separate medians keeps. `nil` when the counts differ, there are none, or a
  /// denominator is not positive.
  init(name: String, pairedNumerators: [Double], denominators: [Double], target: Double? = nil) {
    self.name = name
    self.target = target
    guard pairedNumerators.count == denominators.count, denominators.allSatisfy({ $0 > 0 })
    else {
      value = nil
      return
    }
    value = BenchStatistics(zip(pairedNumerators, denominators).map { $0 / $1 })?.median
  }

  /// A ratio whose value is already known.
  init(name: String, value: Double?, target: Double? = nil) {
    self.name = name
    self.value = value
    self.target = target
  }

  /// `true` when there is a target and the value misses it (or is missing).
  var missed: Bool {
    guard let target else { return false }
    guard let value else { return true }
    return value > target
  }

  /// `"ok"`, `"MISSED"`, or `"-"` without a target.
  var verdict: String {
    guard target != nil else { return "-" }
    return missed ? "MISSED" : "ok"
  }
}

/// A yes/no target, e.g. "exactly one token request".
struct BenchCheck: Sendable, Hashable {
  /// What must hold, e.g. `"token requests for 1000 callers == 1"`.
  let name: String
  /// What was observed, e.g. `"1"`.
  let observed: String
  /// Whether it held.
  let passed: Bool

  /// `"ok"` or `"MISSED"`.
  var verdict: String { passed ? "ok" : "MISSED" }
}

/// Monotonic wall-clock timing.
enum BenchClock {
  /// Nanoseconds on the monotonic clock.
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Seconds from `start` (a ``now()`` value) to now.
  static func seconds(since start: UInt64) -> Double {
    Double(now() &- start) / 1e9
  }

  /// Runs `body` and returns its wall time in seconds.
  static func time(_ body: () async throws -> Void) async rethrows -> Double {
    let start = now()
    try await body()
    return seconds(since: start)
  }

  /// Runs `warmUp` untimed batches, then `runs` timed batches of `body`, and returns the
  /// seconds per batch divided by `perBatch` (so per operation when a batch does
  /// `perBatch` operations).
  static func repeated(
    warmUp: Int, runs: Int, perBatch: Int = 1, _ body: () async throws -> Void
  ) async rethrows -> [Double] {
    for _ in 0..<warmUp { try await body() }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
      let seconds = try await time(body)
      samples.append(seconds / Double(max(perBatch, 1)))
    }
    return samples
  }
}
