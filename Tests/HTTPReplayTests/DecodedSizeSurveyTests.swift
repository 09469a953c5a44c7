import Foundation
import Testing

@testable import HTTPReplay

/// The work lint does on a file of bodies that decode past the cap, counted as bytes: the
/// bytes decoded for refused bodies are taken from the file's 64 MiB, and the pass stops
/// once it is spent (later bodies are neither decoded nor counted).
@Suite("HTTPReplay: decoded-size survey of a HAR file", .timeLimit(.minutes(2)))
struct DecodedSizeSurveyTests {
  static let overCap = HARBuilder.gzipJSON(decodedSize: (10 << 20) + 1)

  @Test("forty bodies past the cap: six refused, the seventh spends the budget, none after")
  func decodedBytesBounded() async throws {
    let entries = (0..<40).map { _ in
      HARBuilder.entry(
        responseHeaders: HARBuilder.gzipHeaders, content: HARBuilder.gzipContent(Self.overCap))
    }
    let data = try HARBuilder.export(entries)
    let survey = try await offPool {
      DecodedSizeSurvey(try JSONSerialization.jsonObject(with: data))
    }
    #expect(survey.decodedBytes == DecodedSizeBudget.perFile)
    #expect(survey.refused.count == 6)
    #expect(survey.overrun == "log.entries[6].response.content")
    #expect(survey.undecoded == 33)
    let finding = try #require(survey.finding)
    #expect(finding.location == "log.entries[0].response.content")
    #expect(finding.message.contains("so do 5 more bodies"))
    #expect(finding.message.contains("33 later bodies were not checked"))
  }

  @Test("a file whose bodies fit: no finding, every byte counted once")
  func fits() throws {
    let root = try JSONSerialization.jsonObject(
      with: try HARBuilder.export([HARBuilder.entry(), HARBuilder.entry()]))
    let survey = DecodedSizeSurvey(root)
    #expect(survey.finding == nil)
    #expect(survey.refused.isEmpty)
    #expect(survey.decodedBytes == 4)
  }
}
