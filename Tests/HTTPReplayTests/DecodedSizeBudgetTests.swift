import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// A HAR file's bodies may be content-coded (gzip: 16 KB on the wire for 16 MiB decoded),
/// and every check (redaction, leak scans) runs on decoded bytes. Each body is limited to
/// what a live answer may be (10 MiB, the transports' cap) and a file's bodies to what the
/// loader reads (64 MiB) in total, checked before any scan, in every place a body is
/// decoded: import, lint, load and replay; and nothing larger than the loader reads is
/// ever written (import, record).
@Suite("HTTPReplay: decoded-size budget per body and per file", .timeLimit(.minutes(2)))
struct DecodedSizeBudgetTests {
  static let perBody = 10 << 20
  /// Seven bodies of 10 MiB each: every body within its cap, 70 MiB in total.
  static let bomb = HARBuilder.gzipJSON(decodedSize: perBody)

  static func bombEntries(_ count: Int, inRequest: Bool = false) -> [HARBuilder.Object] {
    (0..<count).map { _ in
      inRequest
        ? HARBuilder.entry(
          requestHeaders: HARBuilder.gzipHeaders,
          requestBody: HARBuilder.gzipPostData(bomb))
        : HARBuilder.entry(
          responseHeaders: HARBuilder.gzipHeaders, content: HARBuilder.gzipContent(bomb))
    }
  }

  @Test("import refuses a body that decodes past the live answer cap, naming the entry")
  func oneBodyOverTheCap() async throws {
    let entries = [
      HARBuilder.entry(),
      HARBuilder.entry(
        responseHeaders: HARBuilder.gzipHeaders,
        content: HARBuilder.gzipContent(HARBuilder.gzipJSON(decodedSize: Self.perBody + 1))),
    ]
    let data = try HARBuilder.export(entries)
    let error = try await offPool { () -> String? in
      do {
        _ = try HARImporter.importHAR(data: data, secrets: [])
        return nil
      } catch { return "\(error)" }
    }
    let message = try #require(error)
    #expect(message.contains("entries[1]"))
    #expect(message.contains("10 MiB"))
  }

  @Test("import refuses a file whose bodies decode past 64 MiB in total, before any scan")
  func importTotal() async throws {
    let data = try HARBuilder.export(Self.bombEntries(7))
    let error = try await offPool { () -> String? in
      do {
        _ = try HARImporter.importHAR(data: data, secrets: [])
        return nil
      } catch { return "\(error)" }
    }
    let message = try #require(error)
    #expect(message.contains("entries[6]"))
    #expect(message.contains("64 MiB"))
  }

  @Test("lint reports a file whose bodies decode past 64 MiB in total, and scans nothing")
  func lintTotal() async throws {
    let data = try HARBuilder.cassette(Self.bombEntries(7))
    let findings = try await offPool { CassetteLinter.lint(data: data, file: "bomb.har") }
    #expect(findings.count == 1)
    #expect(findings.first?.location.contains("entries[6]") == true)
    #expect(findings.first?.message.contains("64 MiB") == true)
  }

  @Test("loading and replaying a cassette whose request bodies decode past 64 MiB is a typed error")
  func loadAndReplayTotal() async throws {
    let data = try HARBuilder.cassette(Self.bombEntries(7, inRequest: true))
    let loadError = try await offPool { () -> String? in
      do {
        _ = try Cassette.decode(data)
        return nil
      } catch let error as CassetteError { return "\(error)" }
    }
    #expect(loadError?.contains("entries[6]") == true)
    // The same cassette built in memory: replay reports it, it does not inflate it all.
    let cassette = try JSONDecoder().decode(Cassette.self, from: data)
    let replay = try await offPool { ReplayTransport(cassette: cassette) }
    await #expect {
      _ = try await replay.send(HTTPRequest(method: .get, url: Fixture.url("https://x.test/")))
    } throws: { error in
      guard case .badCassette = error as? ReplayError else { return false }
      return true
    }
  }

  @Test("a cassette larger than the loader reads is never written (import and record)")
  func neverWriteUnloadable() async throws {
    let text = String(repeating: "a", count: 64 << 20)
    let interaction = Interaction(
      request: HTTPRequest(method: .get, url: Fixture.url("https://x.test/")),
      response: HTTPResponse(
        status: 200, headerFields: ["Content-Type": "text/plain"], body: Data(text.utf8)))
    let cassette = Fixture.cassette([interaction])
    let directory = try Fixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("big.har")
    let error = try await offPool { () -> String? in
      do {
        try cassette.write(to: url, secrets: [])
        return nil
      } catch { return "\(error)" }
    }
    let message = try #require(error)
    #expect(message.contains("64 MiB"))
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }
}
