import Foundation

extension ContractReport {
  /// JUnit XML: `<testsuites>` with one `<testsuite name=harness>` holding one
  /// `<testcase classname="contracts.<harness>" name=contract>` per contract, with a
  /// `<failure>` or `<skipped>` child. All text is XML-escaped.
  func renderJUnit() -> String {
    var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
    lines.append(
      "<testsuites name=\"contracts\" tests=\"\(results.count)\" failures=\"\(failedCount)\""
        + " skipped=\"\(skippedCount)\" errors=\"0\">")
    for harness in harnesses {
      let suite = results.filter { $0.harness == harness }
      let failed = suite.filter { $0.outcome.status == "failed" }.count
      let skipped = suite.filter { $0.outcome.status == "skipped" }.count
      lines.append(
        "  <testsuite name=\"\(xmlEscape(harness))\" tests=\"\(suite.count)\""
          + " failures=\"\(failed)\" skipped=\"\(skipped)\" errors=\"0\">")
      for result in suite {
        let open =
          "    <testcase classname=\"contracts.\(xmlEscape(harness))\""
          + " name=\"\(xmlEscape(result.contract))\""
        switch result.outcome {
        case .passed:
          lines.append(open + "/>")
        case .skipped(let reason):
          lines.append(open + ">")
          lines.append("      <skipped message=\"\(xmlEscape(reason))\"/>")
          lines.append("    </testcase>")
        case .failed(let failure):
          lines.append(open + ">")
          lines.append(
            "      <failure message=\"\(xmlEscape(failure.location))\" type=\"ContractFailure\">"
              + xmlEscape("expected: \(failure.expected)\nactual: \(failure.actual)")
              + "</failure>")
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Escapes `& < > " '` and drops characters XML 1.0 does not allow.
func xmlEscape(_ text: String) -> String {
  var output = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "&": output += "&amp;"
    case "<": output += "&lt;"
    case ">": output += "&gt;"
    case "\"": output += "&quot;"
    case "'": output += "&apos;"
    case "\n", "\t", "\r": output.unicodeScalars.append(scalar)
    default:
      let value = scalar.value
      let allowed =
        (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
        || (0x10000...0x10FFFF).contains(value)
      if allowed { output.unicodeScalars.append(scalar) } else { output += "\u{FFFD}" }
    }
  }
  return output
}
