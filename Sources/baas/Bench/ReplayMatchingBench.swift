import Foundation
import HTTPReplay

/// 2. Replay matching cost per request in cassettes of 1,000, 10,000 and 100,000 entries,
/// through ``HTTPReplay/ReplayBenchmark``: each run builds an in-memory cassette of
/// distinct Firebase-style interactions, builds a ``HTTPReplay/ReplayTransport`` over it
/// (timed separately as set-up) and replays requests spread over the whole cassette
/// (redaction, canonical key, lookup, consumption). Target: per-request cost at the largest
/// size / at the smallest ≤ 1.5.
enum ReplayMatchingBench {
  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(id: "replayMatching", title: "2. Replay matching: cost per request")
    do {
      var medians: [Int: Double] = [:]
      for size in plan.replaySizes {
        // Larger cassettes take long to build; fewer runs keep the total bounded.
        let runs = size >= 100_000 ? max(3, plan.runs / 2) : plan.runs
        for _ in 0..<plan.warmUp {
          _ = try await ReplayBenchmark.measure(entries: size, requests: plan.replayBatch)
        }
        var perRequest: [Double] = []
        var setUp: [Double] = []
        for _ in 0..<runs {
          let result = try await ReplayBenchmark.measure(entries: size, requests: plan.replayBatch)
          perRequest.append(seconds(result.perRequest))
          setUp.append(seconds(result.setup))
        }
        let row = BenchRow(
          "\(size.formatted()) entries: per request", unit: .seconds, samples: perRequest)
        group.rows.append(row)
        group.rows.append(
          BenchRow("\(size.formatted()) entries: transport set-up", unit: .seconds, samples: setUp))
        medians[size] = row.statistics?.median
      }
      if let small = plan.replaySizes.min(), let large = plan.replaySizes.max(), small != large {
        for size in plan.replaySizes where size != small {
          group.ratios.append(
            BenchRatio(
              name: "per request, \(size.formatted()) / \(small.formatted()) entries",
              numerator: medians[size], denominator: medians[small],
              target: size == large ? 1.5 : nil))
        }
      }
      group.notes = [
        "\(plan.replayBatch.formatted()) requests replayed per run, spread over the cassette; "
          + "cassettes built in memory (no file I/O)"
      ]
    } catch {
      group.error = "\(error)"
    }
    return group
  }

  /// `duration` in seconds.
  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
