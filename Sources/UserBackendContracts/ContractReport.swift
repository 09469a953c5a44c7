import Foundation

/// The output formats of ``ContractReport/render(_:)``.
public enum ReportFormat: String, Sendable, Hashable, Codable, CaseIterable {
  /// A terminal matrix (✓ / ✗ / skip), failure details and the summary line.
  case text
  /// A stable, key-sorted JSON document.
  case json
  /// JUnit XML: one `<testsuite>` per harness, one `<testcase>` per contract.
  case junit
  /// A Markdown table plus failure details.
  case markdown
}

/// All results of a ``ContractRunner`` run, in contract order then harness order.
public struct ContractReport: Sendable, Hashable, Codable {
  /// Contract names, in row order.
  public var contracts: [String]
  /// Harness names, in column order.
  public var harnesses: [String]
  /// One result per (contract, harness) pair that ran.
  public var results: [ContractResult]

  /// A report value.
  public init(contracts: [String], harnesses: [String], results: [ContractResult]) {
    self.contracts = contracts
    self.harnesses = harnesses
    self.results = results
  }

  /// How many runs passed.
  public var passedCount: Int { results.filter { $0.outcome == .passed }.count }
  /// How many runs failed.
  public var failedCount: Int { results.filter { $0.outcome.status == "failed" }.count }
  /// How many runs were skipped.
  public var skippedCount: Int { results.filter { $0.outcome.status == "skipped" }.count }

  /// `N passed, N failed, N skipped`.
  public var summary: String {
    "\(passedCount) passed, \(failedCount) failed, \(skippedCount) skipped"
  }

  /// The result of `contract` on `harness`, if it ran.
  public func result(contract: String, harness: String) -> ContractResult? {
    results.first { $0.contract == contract && $0.harness == harness }
  }

  /// The report as text in `format`. Contains no tokens or passwords (failure texts are
  /// scrubbed by the runner).
  public func render(_ format: ReportFormat) -> String {
    switch format {
    case .text: renderText()
    case .json: renderJSON()
    case .junit: renderJUnit()
    case .markdown: renderMarkdown()
    }
  }

  private func symbol(_ result: ContractResult?) -> String {
    switch result?.outcome {
    case .passed: "✓"
    case .failed: "✗"
    case .skipped: "skip"
    case nil: "-"
    }
  }

  private func renderText() -> String {
    let first = max("contract".count, contracts.map(\.count).max() ?? 0)
    let widths = harnesses.map { max($0.count, 4) }
    func row(_ cells: [String]) -> String {
      var line = cells[0].padding(toLength: first, withPad: " ", startingAt: 0)
      for (cell, width) in zip(cells.dropFirst(), widths) {
        line += "  " + cell.padding(toLength: width, withPad: " ", startingAt: 0)
      }
      return line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
    var lines = [row(["contract"] + harnesses)]
    lines.append(
      row([String(repeating: "-", count: first)] + widths.map { String(repeating: "-", count: $0) })
    )
    for contract in contracts {
      lines.append(
        row([contract] + harnesses.map { symbol(result(contract: contract, harness: $0)) }))
    }
    let failures = results.compactMap { result -> String? in
      guard case .failed(let failure) = result.outcome else { return nil }
      return "✗ \(result.contract) on \(result.harness): \(failure.location)\n"
        + "    expected: \(failure.expected)\n    actual:   \(failure.actual)"
    }
    if !failures.isEmpty { lines += ["", "Failures:"] + failures }
    let skips = results.compactMap { result -> String? in
      guard case .skipped(let reason) = result.outcome else { return nil }
      return "  \(result.contract) on \(result.harness): \(reason)"
    }
    if !skips.isEmpty { lines += ["", "Skipped:"] + skips }
    lines += ["", summary]
    return lines.joined(separator: "\n") + "\n"
  }

  private func renderMarkdown() -> String {
    func cell(_ text: String) -> String {
      text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
    var lines = ["| Contract | " + harnesses.map(cell).joined(separator: " | ") + " |"]
    lines.append("|---|" + harnesses.map { _ in "---|" }.joined())
    for contract in contracts {
      let cells = harnesses.map { symbol(result(contract: contract, harness: $0)) }
      lines.append("| " + cell(contract) + " | " + cells.joined(separator: " | ") + " |")
    }
    let failures = results.compactMap { result -> String? in
      guard case .failed(let failure) = result.outcome else { return nil }
      return "- **\(cell(result.contract))** on `\(result.harness)`, \(cell(failure.location)): "
        + "expected \(cell(failure.expected)); got \(cell(failure.actual))"
    }
    if !failures.isEmpty { lines += ["", "### Failures", ""] + failures }
    lines += ["", summary]
    return lines.joined(separator: "\n") + "\n"
  }

  private struct JSONDocument: Encodable {
    struct Entry: Encodable {
      var contract: String
      var backend: String
      var status: String
      var failure: ContractFailure?
      var reason: String?
    }
    var summary: [String: Int]
    var contracts: [String]
    var backends: [String]
    var results: [Entry]
  }

  private func renderJSON() -> String {
    let document = JSONDocument(
      summary: ["passed": passedCount, "failed": failedCount, "skipped": skippedCount],
      contracts: contracts, backends: harnesses,
      results: results.map { result in
        var entry = JSONDocument.Entry(
          contract: result.contract, backend: result.harness, status: result.outcome.status)
        switch result.outcome {
        case .failed(let failure): entry.failure = failure
        case .skipped(let reason): entry.reason = reason
        case .passed: break
        }
        return entry
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
