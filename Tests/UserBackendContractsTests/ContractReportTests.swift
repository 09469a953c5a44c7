import Foundation
import Testing
import UserBackendContracts

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite(.timeLimit(.minutes(2))) struct ContractReportTests {
  static let report = ContractReport(
    contracts: ["sign-in", "odd <name> & \"quotes\""],
    harnesses: ["fake", "ncmb-replay"],
    results: [
      ContractResult(contract: "sign-in", harness: "fake", outcome: .passed),
      ContractResult(
        contract: "sign-in", harness: "ncmb-replay",
        outcome: .skipped(reason: "missing capability tokenRefresh")),
      ContractResult(
        contract: "odd <name> & \"quotes\"", harness: "fake",
        outcome: .failed(
          ContractFailure(
            step: 2, label: "dup", operation: "signUp", expected: "error accountAlreadyExists",
            actual: "session for user(email: \"a<b>@x\") | pipe"))),
      ContractResult(contract: "odd <name> & \"quotes\"", harness: "ncmb-replay", outcome: .passed),
    ])

  @Test func countsAndSummaryLine() {
    let report = Self.report
    #expect(report.passedCount == 2)
    #expect(report.failedCount == 1)
    #expect(report.skippedCount == 1)
    let lines = report.render(.text).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains("2 passed, 1 failed, 1 skipped"))
  }

  @Test func textMatrixHasOneRowPerContract() throws {
    let text = Self.report.render(.text)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("contract"))
    #expect(lines[0].contains("fake") && lines[0].contains("ncmb-replay"))
    let signIn = try #require(lines.first(where: { $0.hasPrefix("sign-in ") }))
    #expect(signIn.contains("✓") && signIn.contains("skip"))
    let odd = lines.first { $0.hasPrefix("odd <name>") }
    #expect(odd?.contains("✗") == true)
    #expect(text.contains("step 2 \"dup\" (signUp)"))
    #expect(text.contains("expected: error accountAlreadyExists"))
    #expect(text.contains("missing capability tokenRefresh"))
  }

  @Test func markdownTableShape() {
    let markdown = Self.report.render(.markdown)
    let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
    #expect(rows.count == 2 + Self.report.contracts.count)
    #expect(rows[0] == "| Contract | fake | ncmb-replay |")
    #expect(rows[1] == "|---|---|---|")
    for row in rows {
      let unescapedPipes = row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }
      #expect(unescapedPipes.count == 2 + Self.report.harnesses.count)
    }
    #expect(markdown.contains("2 passed, 1 failed, 1 skipped"))
  }

  @Test func jsonIsStableAndDecodable() throws {
    let first = Self.report.render(.json)
    #expect(first == Self.report.render(.json))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Int])
    #expect(summary == ["passed": 2, "failed": 1, "skipped": 1])
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.map { $0["status"] as? String } == ["passed", "skipped", "failed", "passed"])
    #expect(
      first.range(of: "\"backends\"")!.lowerBound < first.range(of: "\"contracts\"")!.lowerBound)
  }

  @Test func junitIsWellFormedAndEscaped() throws {
    let xml = Self.report.render(.junit)
    #expect(!xml.contains("odd <name>"))
    #expect(xml.contains("odd &lt;name&gt; &amp; &quot;quotes&quot;"))
    #if canImport(FoundationXML) || canImport(Darwin)
      let document = try XMLDocument(data: Data(xml.utf8))
      let root = try #require(document.rootElement())
      #expect(root.name == "testsuites")
      #expect(root.attribute(forName: "failures")?.stringValue == "1")
      let suites = root.elements(forName: "testsuite")
      #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["fake", "ncmb-replay"])
      let fakeCases = suites[0].elements(forName: "testcase")
      #expect(fakeCases.count == 2)
      let failed = try #require(fakeCases.first { !$0.elements(forName: "failure").isEmpty })
      #expect(failed.attribute(forName: "name")?.stringValue == "odd <name> & \"quotes\"")
      let failure = try #require(failed.elements(forName: "failure").first)
      #expect(failure.stringValue?.contains("a<b>@x") == true)
      let skipped = suites[1].elements(forName: "testcase").flatMap {
        $0.elements(forName: "skipped")
      }
      #expect(
        skipped.first?.attribute(forName: "message")?.stringValue
          == "missing capability tokenRefresh")
    #endif
  }

  @Test func controlCharactersAreDroppedFromXML() throws {
    let report = ContractReport(
      contracts: ["c"], harnesses: ["h"],
      results: [
        ContractResult(contract: "c", harness: "h", outcome: .skipped(reason: "bell \u{07} here"))
      ])
    let xml = report.render(.junit)
    #expect(!xml.unicodeScalars.contains("\u{07}"))
    #if canImport(FoundationXML) || canImport(Darwin)
      _ = try XMLDocument(data: Data(xml.utf8))
    #endif
  }
}
