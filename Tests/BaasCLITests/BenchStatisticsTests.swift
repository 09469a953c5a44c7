import Foundation
import Testing

@testable import BaasBench

@Suite(
  "baas bench: statistics, ratio flags and report rendering (no timing)", .timeLimit(.minutes(10)))
struct BenchStatisticsTests {
  @Test(
    "percentiles interpolate linearly between closest ranks",
    arguments: [
      (50.0, 2.5), (10.0, 1.3), (90.0, 3.7), (0.0, 1.0), (100.0, 4.0), (-5.0, 1.0), (150.0, 4.0),
    ])
  func percentiles(p: Double, expected: Double) throws {
    let stats = try #require(BenchStatistics([4, 1, 3, 2]))
    #expect(abs(stats.percentile(p) - expected) < 1e-12)
  }

  @Test("median, extremes and count of unsorted samples")
  func median() throws {
    let stats = try #require(BenchStatistics([9, 1, 5, 3, 7]))
    #expect(stats.median == 5)
    #expect(stats.minimum == 1)
    #expect(stats.maximum == 9)
    #expect(stats.count == 5)
    #expect(stats.p10 == 1.8)
  }

  @Test("one sample is its own median and spread")
  func singleSample() throws {
    let stats = try #require(BenchStatistics([0.25]))
    #expect(stats.median == 0.25)
    #expect(stats.p10 == 0.25)
    #expect(stats.p90 == 0.25)
    #expect(stats.medianAbsoluteDeviation == 0)
  }

  @Test("the median absolute deviation ignores one outlier")
  func medianAbsoluteDeviation() throws {
    let stats = try #require(BenchStatistics([1, 2, 3, 4, 100]))
    #expect(stats.median == 3)
    #expect(stats.medianAbsoluteDeviation == 1)
  }

  @Test(
    "no samples, or a non-finite one, give no statistics", arguments: [[], [1, .nan], [.infinity]])
  func invalidSamples(samples: [Double]) {
    #expect(BenchStatistics(samples) == nil)
  }

  @Test(
    "a ratio is flagged only when it exceeds its target",
    arguments: [
      (1.2, 1.0, 1.10, true), (1.0, 1.0, 1.10, false), (1.5, 1.0, 1.5, false),
      (1.51, 1.0, 1.5, true), (0.5, 1.0, 1.5, false),
    ])
  func ratioFlag(numerator: Double, denominator: Double, target: Double, missed: Bool) {
    let ratio = BenchRatio(
      name: "r", numerator: numerator, denominator: denominator, target: target)
    #expect(ratio.missed == missed)
    #expect(ratio.verdict == (missed ? "MISSED" : "ok"))
  }

  @Test("a paired ratio is the median of the per-run ratios, not the ratio of the medians")
  func pairedRatio() throws {
    // Per run the numerator is 1.1, 1.1, 1.1, 1.3 and 1.0 times the denominator (median
    // 1.1); runs 3 and 5 were slow for both variants, so the ratio of the two medians
    // (1.3 / 1.0) reads 1.3.
    let denominators = [1.0, 1.0, 3.0, 1.0, 2.0]
    let numerators = [1.1, 1.1, 3.3, 1.3, 2.0]
    let ratio = BenchRatio(
      name: "r", pairedNumerators: numerators, denominators: denominators, target: 1.05)
    #expect(try #require(ratio.value) == 1.1)
    #expect(ratio.missed)
    let unpaired = BenchRatio(
      name: "r", numerator: BenchStatistics(numerators)?.median,
      denominator: BenchStatistics(denominators)?.median)
    #expect(try #require(unpaired.value) == 1.3)
  }

  @Test(
    "a paired ratio needs as many numerators as denominators, all denominators positive",
    arguments: [([1.0, 2.0], [1.0]), ([1.0], [0.0]), ([Double](), [Double]())])
  func pairedRatioInvalid(numerators: [Double], denominators: [Double]) {
    let ratio = BenchRatio(
      name: "r", pairedNumerators: numerators, denominators: denominators, target: 1.0)
    #expect(ratio.value == nil)
    #expect(ratio.missed)
  }

  @Test("a ratio without a target is informational; one without a value misses its target")
  func ratioWithoutTargetOrValue() {
    let informational = BenchRatio(name: "r", numerator: 9, denominator: 1)
    #expect(informational.value == 9)
    #expect(!informational.missed)
    #expect(informational.verdict == "-")
    let noDenominator = BenchRatio(name: "r", numerator: 1, denominator: 0, target: 1.5)
    #expect(noDenominator.value == nil)
    #expect(noDenominator.missed)
    let missing = BenchRatio(name: "r", numerator: nil, denominator: 2, target: 1.5)
    #expect(missing.missed)
  }

  @Test("a group counts missed ratios, failed checks and an error")
  func missedCount() {
    var group = BenchGroup(id: "g", title: "G")
    group.ratios = [
      BenchRatio(name: "a", value: 2, target: 1.5), BenchRatio(name: "b", value: 1, target: 1.5),
    ]
    group.checks = [
      BenchCheck(name: "c", observed: "2", passed: false),
      BenchCheck(name: "d", observed: "1", passed: true),
    ]
    #expect(group.missedCount == 2)
    group.error = "emulator did not start"
    #expect(group.missedCount == 3)
  }

  @Test("the table marks a missed target MISSED and the JSON carries the same figures")
  func rendering() throws {
    var group = BenchGroup(id: "adapterOverhead", title: "1. Adapter overhead")
    group.rows = [BenchRow("sign-in", unit: .seconds, samples: [0.001, 0.002, 0.003])]
    group.ratios = [BenchRatio(name: "adapter / direct", value: 1.25, target: 1.10)]
    let report = BenchReport(
      mode: "quick",
      machine: BenchMachine(
        processors: 2, cpuModel: "Test CPU", memoryBytes: 1 << 30, operatingSystem: "Test OS"),
      groups: [group], totalSeconds: 1)
    let text = report.renderText()
    #expect(text.contains("MISSED"))
    #expect(text.contains("2.00 ms"))
    #expect(text.contains("1 target(s) missed"))

    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
    #expect(object["missedTargets"] as? Int == 1)
    let groups = try #require(object["groups"] as? [[String: Any]])
    let rows = try #require(groups.first?["rows"] as? [[String: Any]])
    #expect(rows.first?["median"] as? Double == 0.002)
    #expect(rows.first?["runs"] as? Int == 3)
    let ratios = try #require(groups.first?["ratios"] as? [[String: Any]])
    #expect(ratios.first?["missed"] as? Bool == true)
  }

  @Test("a met target is not marked MISSED")
  func renderingWithoutMiss() {
    var group = BenchGroup(id: "g", title: "G")
    group.ratios = [BenchRatio(name: "r", value: 1.05, target: 1.10)]
    let report = BenchReport(
      mode: "full",
      machine: BenchMachine(processors: 1, cpuModel: "c", memoryBytes: 1, operatingSystem: "o"),
      groups: [group], totalSeconds: 0)
    #expect(!report.renderText().contains("MISSED"))
    #expect(report.missedCount == 0)
  }

  @Test(
    "values are shown in a readable unit",
    arguments: [
      (0.000_000_5, BenchUnit.seconds, "500 ns"), (0.000_812, .seconds, "812.0 µs"),
      (0.001_24, .seconds, "1.24 ms"), (2.5, .seconds, "2.50 s"), (3456, .perSecond, "3456/s"),
      (12.34, .perSecond, "12.3/s"), (19_084_083, .bytes, "18.2 MiB"), (4096, .bytes, "4 KiB"),
    ])
  func formatting(value: Double, unit: BenchUnit, expected: String) {
    #expect(BenchReport.format(value, unit) == expected)
  }

  @Test(
    "bad arguments are usage errors (exit 2) before anything is measured",
    arguments: [["--bogus"], ["--only"], ["--only", "nonsense"], ["--only", "fake,nonsense"]])
  func usageErrors(arguments: [String]) async {
    let silent = BenchOutput(json: { _ in }, text: { _ in }, error: { _ in })
    #expect(await BenchCommand.run(arguments: arguments, output: silent) == 2)
  }
}
