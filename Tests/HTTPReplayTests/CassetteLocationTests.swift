import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// Found by review: messages named a place in a cassette in three ways, `entries[1]…`
/// (load and import), `log.entries[1]…` (lint, the size budget) and `entry #1` (replay), and
/// an import refusal named the cassette it was building, whose entries are renumbered
/// once entries are left out, not the file the user has. Every message names the JSON path
/// from the root of the file the user can open: `log.entries[N]…`.
@Suite("HTTPReplay: one way to name a place in a cassette", .timeLimit(.minutes(1)))
struct CassetteLocationTests {
  /// The message of what `body` throws, or `nil`.
  static func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch { return "\(error)" }
  }

  /// A cassette whose entry 1 has `change` applied (entry 0 is fine).
  static func cassette(_ change: (inout HAREntry) -> Void) -> Cassette {
    let interaction = Interaction(
      request: HTTPRequest(
        method: .post, url: Fixture.url("https://api.example.com/x"),
        headerFields: ["Content-Type": "application/octet-stream"], body: Data([0xFF, 0xFE])),
      response: HTTPResponse(
        status: 200, headerFields: ["Content-Type": "application/octet-stream"],
        body: Data([0xFF, 0xFE])))
    var cassette = Fixture.cassette([interaction, interaction])
    change(&cassette.entries[1])
    return cassette
  }

  @Test(
    "loading names the entry from the file's root",
    arguments: ["request.url", "request.postData.text", "response.content.text"])
  func loading(field: String) throws {
    let cassette = Self.cassette { entry in
      switch field {
      case "request.url": entry.request.url = "/relative"
      case "request.postData.text": entry.request.postData?.text = "%%"
      default: entry.response.content.text = "%%"
      }
    }
    let message = try #require(Self.message { _ = try cassette.interactions() })
    #expect(message.contains(" log.entries[1].\(field):"), "\(message)")
  }

  @Test("import names the entry of the file it reads, also when entries before it are left out")
  func importRefusals() throws {
    // Entry 0 is a `data:` URL the import skips; entry 1 is refused.
    let skipped = HARBuilder.entry(url: "data:text/plain,hello")
    let brotli = [("Content-Type", "application/json"), ("Content-Encoding", "br")]
    let cases: [(HARBuilder.Object, String)] = [
      (
        HARBuilder.entry(
          requestHeaders: brotli,
          requestBody: ["mimeType": "application/json", "text": "{}"]),
        "log.entries[1].request.postData:"
      ),
      (HARBuilder.entry(responseHeaders: brotli), "log.entries[1].response.content:"),
      // Found by the leak scan of the cassette being built (where it is entry 0).
      (
        HARBuilder.entry(
          requestHeaders: [("Content-Type", "text/plain")],
          requestBody: ["mimeType": "text/plain", "text": "password: hunter2-hunter2"]),
        "log.entries[1].request.postData.text"
      ),
    ]
    for (entry, location) in cases {
      let data = try HARBuilder.export([skipped, entry])
      let message = try #require(
        Self.message { _ = try HARImporter.importHAR(data: data, secrets: []) })
      #expect(message.contains(location), "\(message)")
      #expect(!message.contains("entries[0]"), "\(message)")
    }
  }

  @Test("replay names recorded entries by their path")
  func replay() async throws {
    let get = { (path: String) in
      HTTPRequest(method: .get, url: Fixture.url("https://api.example.com\(path)"))
    }
    let replay = ReplayTransport(
      cassette: Fixture.cassette([
        Interaction(request: get("/a"), response: HTTPResponse(status: 200)),
        Interaction(request: get("/b"), response: HTTPResponse(status: 200)),
      ]))
    _ = try await replay.send(get("/a"))
    var noMatch = ""
    do {
      _ = try await replay.send(get("/c"))
    } catch { noMatch = "\(error)" }
    #expect(noMatch.contains("log.entries[1] GET api.example.com/b"), "\(noMatch)")
    let unused = try #require(Self.message { try replay.assertAllUsed() })
    #expect(unused.contains("log.entries[1] GET api.example.com/b"), "\(unused)")
    #expect(!noMatch.contains("entry #") && !unused.contains("entry #"))
  }
}
