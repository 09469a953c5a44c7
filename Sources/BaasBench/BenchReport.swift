import Foundation

/// The unit of a measured quantity.
enum BenchUnit: String, Sendable, Hashable {
  /// Seconds (per operation, per run, …); shown as ns/µs/ms/s.
  case seconds = "s"
  /// Operations per second.
  case perSecond = "1/s"
  /// Bytes; shown as KiB/MiB.
  case bytes = "bytes"
  /// A plain count.
  case count = "count"
}

/// One measured quantity: its statistics over the repeated runs.
struct BenchRow: Sendable, Hashable {
  /// What was measured, e.g. `"Firebase sign-in via adapter"`.
  let name: String
  /// The unit of the samples.
  let unit: BenchUnit
  /// The statistics, or `nil` when nothing could be measured.
  let statistics: BenchStatistics?

  /// A row over `samples` (in `unit`).
  init(_ name: String, unit: BenchUnit, samples: [Double]) {
    self.name = name
    self.unit = unit
    statistics = BenchStatistics(samples)
  }
}

/// The results of one measurement group (one numbered item of the benchmark).
struct BenchGroup: Sendable {
  /// A stable key for JSON, e.g. `"adapterOverhead"`.
  let id: String
  /// The table heading, e.g. `"1. Adapter overhead (sign-in over loopback)"`.
  let title: String
  /// The measured quantities.
  var rows: [BenchRow] = []
  /// Ratios, some with targets.
  var ratios: [BenchRatio] = []
  /// Yes/no targets.
  var checks: [BenchCheck] = []
  /// Conditions of the measurement (hash cost, counts, what was excluded).
  var notes: [String] = []
  /// Why the group could not run, or `nil`.
  var error: String?
  /// Why the group was skipped (a missing optional tool), or `nil`; not a miss.
  var skipped: String?

  /// An empty group.
  init(id: String, title: String) {
    self.id = id
    self.title = title
  }

  /// The number of missed targets (ratios and checks), counting a failed group as one.
  var missedCount: Int {
    ratios.filter(\.missed).count + checks.filter { !$0.passed }.count + (error == nil ? 0 : 1)
  }
}

/// The machine the benchmark ran on.
struct BenchMachine: Sendable, Hashable {
  /// Online processors.
  let processors: Int
  /// `model name` from /proc/cpuinfo, or `"unknown"`.
  let cpuModel: String
  /// Physical memory in bytes.
  let memoryBytes: UInt64
  /// The OS version string.
  let operatingSystem: String

  /// The current machine.
  static func current() -> BenchMachine {
    var model = "unknown"
    if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
      let colon = line.firstIndex(of: ":")
    {
      model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return BenchMachine(
      processors: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model,
      memoryBytes: ProcessInfo.processInfo.physicalMemory,
      operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString)
  }
}

/// The whole run: machine, mode and groups; renders as a text table or one JSON object.
struct BenchReport: Sendable {
  /// `"quick"` or `"full"`.
  let mode: String
  /// Where it ran.
  let machine: BenchMachine
  /// The groups, in order.
  let groups: [BenchGroup]
  /// Wall time of the whole benchmark in seconds.
  let totalSeconds: Double

  /// Missed targets over all groups.
  var missedCount: Int { groups.reduce(0) { $0 + $1.missedCount } }

  /// The human-readable table.
  func renderText() -> String {
    var lines: [String] = []
    let memoryGiB = Double(machine.memoryBytes) / 1_073_741_824
    lines.append(
      "baas bench (\(mode)): \(machine.processors) CPUs, \(machine.cpuModel), "
        + String(format: "%.1f GiB", memoryGiB) + ", \(machine.operatingSystem)")
    lines.append(
      "Spread: p10–p90 of the repeated runs after warm-up; MAD = median absolute deviation.")
    for group in groups {
      lines.append("")
      lines.append(group.title)
      if let error = group.error { lines.append("  MISSED: could not run: \(error)") }
      if let skipped = group.skipped { lines.append("  skipped: \(skipped)") }
      if !group.rows.isEmpty {
        let table = group.rows.map { row -> [String] in
          guard let stats = row.statistics else { return [row.name, "-", "-", "-", "0"] }
          return [
            row.name, Self.format(stats.median, row.unit),
            Self.format(stats.p10, row.unit) + " – " + Self.format(stats.p90, row.unit),
            Self.format(stats.medianAbsoluteDeviation, row.unit), "\(stats.count)",
          ]
        }
        lines += Self.columns(
          [["measurement", "median", "p10 – p90", "MAD", "runs"]] + table,
          rightAligned: [1, 2, 3, 4])
      }
      if !group.ratios.isEmpty {
        let table = group.ratios.map { ratio -> [String] in
          [
            ratio.name, ratio.value.map { String(format: "%.3f", $0) } ?? "-",
            ratio.target.map { String(format: "≤ %.2f", $0) } ?? "-", ratio.verdict,
          ]
        }
        lines += Self.columns([["ratio", "value", "target", ""]] + table, rightAligned: [1, 2])
      }
      for check in group.checks {
        lines.append("  \(check.name): \(check.observed)  \(check.verdict)")
      }
      for note in group.notes { lines.append("  note: \(note)") }
    }
    lines.append("")
    let missed = missedCount
    lines.append(
      String(format: "%d target(s) missed; total %.1f s.", missed, totalSeconds))
    return lines.joined(separator: "\n")
  }

  /// The same figures as one JSON object (seconds, per-second rates and bytes as plain
  /// numbers; keys sorted).
  func renderJSON() -> String {
    let object: [String: Any] = [
      "mode": mode,
      "machine": [
        "processors": machine.processors, "cpuModel": machine.cpuModel,
        "memoryBytes": machine.memoryBytes, "operatingSystem": machine.operatingSystem,
      ],
      "totalSeconds": totalSeconds,
      "missedTargets": missedCount,
      "groups": groups.map(Self.json(group:)),
    ]
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
      let text = String(data: data, encoding: .utf8)
    else { return "{}" }
    return text
  }

  private static func json(group: BenchGroup) -> [String: Any] {
    var object: [String: Any] = [
      "id": group.id, "title": group.title, "notes": group.notes,
      "rows": group.rows.map { row -> [String: Any] in
        var entry: [String: Any] = ["name": row.name, "unit": row.unit.rawValue]
        if let stats = row.statistics {
          entry["median"] = stats.median
          entry["p10"] = stats.p10
          entry["p90"] = stats.p90
          entry["mad"] = stats.medianAbsoluteDeviation
          entry["min"] = stats.minimum
          entry["max"] = stats.maximum
          entry["runs"] = stats.count
        } else {
          entry["runs"] = 0
        }
        return entry
      },
      "ratios": group.ratios.map { ratio -> [String: Any] in
        [
          "name": ratio.name, "value": ratio.value.map { $0 as Any } ?? NSNull(),
          "target": ratio.target.map { $0 as Any } ?? NSNull(), "missed": ratio.missed,
        ]
      },
      "checks": group.checks.map { check -> [String: Any] in
        ["name": check.name, "observed": check.observed, "missed": !check.passed]
      },
    ]
    object["error"] = group.error.map { $0 as Any } ?? NSNull()
    object["skipped"] = group.skipped.map { $0 as Any } ?? NSNull()
    return object
  }

  /// `value` in `unit`, with a readable scale: `"812 µs"`, `"1.24 ms"`, `"3,456/s"`,
  /// `"18.2 MiB"`.
  static func format(_ value: Double, _ unit: BenchUnit) -> String {
    switch unit {
    case .seconds:
      let magnitude = abs(value)
      if magnitude == 0 { return "0 s" }
      if magnitude < 1e-6 { return String(format: "%.0f ns", value * 1e9) }
      if magnitude < 1e-3 { return String(format: "%.1f µs", value * 1e6) }
      if magnitude < 1 { return String(format: "%.2f ms", value * 1e3) }
      return String(format: "%.2f s", value)
    case .perSecond:
      return value >= 100 ? String(format: "%.0f/s", value) : String(format: "%.1f/s", value)
    case .bytes:
      if abs(value) >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
      return String(format: "%.0f KiB", value / 1024)
    case .count:
      return String(format: "%.0f", value)
    }
  }

  /// Left/right-aligned columns, two spaces apart, indented by two.
  static func columns(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
    let count = rows.map(\.count).max() ?? 0
    let widths = (0..<count).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      let cells = row.enumerated().map { column, cell -> String in
        let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
        return rightAligned.contains(column) ? pad + cell : cell + pad
      }
      var line = "  " + cells.joined(separator: "  ")
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
