import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// What a cassette holds must be something replay can hand to a client as an HTTP answer:
/// a status of 100…599, header field names that are HTTP tokens, values without CR, LF or
/// NUL (the rule live requests pass through, `HTTPRequest.checkSendable`). Lint and import
/// refuse other values; load and replay report them as a typed error.
@Suite("HTTPReplay: statuses and header fields replay can honour", .timeLimit(.minutes(1)))
struct ReplayableStructureTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var label: String
    var field: String
    var status = 200
    var requestHeader: (String, String)?
    var responseHeader: (String, String)?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "status -1", field: "response.status", status: -1),
    Case(label: "status 0", field: "response.status", status: 0),
    Case(label: "status 99", field: "response.status", status: 99),
    Case(label: "status 600", field: "response.status", status: 600),
    Case(label: "status 99999", field: "response.status", status: 99999),
    Case(
      label: "response header name with CR LF", field: "response.headers[1]",
      responseHeader: ("X\r\nInjected", "v")),
    Case(
      label: "response header name with a space", field: "response.headers[1]",
      responseHeader: ("Bad Name", "v")),
    Case(
      label: "empty response header name", field: "response.headers[1]", responseHeader: ("", "v")),
    Case(
      label: "response header value with CR LF", field: "response.headers[1]",
      responseHeader: ("X-Evil", "v\r\nEvil: 1")),
    Case(
      label: "response header value with LF", field: "response.headers[1]",
      responseHeader: ("X-Evil", "v\nw")),
    Case(
      label: "response header value with NUL", field: "response.headers[1]",
      responseHeader: ("X-Evil", "v\u{0}w")),
    Case(
      label: "request header name with CR LF", field: "request.headers[1]",
      requestHeader: ("X\r\nInjected", "v")),
    Case(
      label: "request header value with CR LF", field: "request.headers[1]",
      requestHeader: ("User-Agent", "v\r\nEvil: 1")),
  ]

  static func entry(_ item: Case) -> HARBuilder.Object {
    HARBuilder.entry(
      requestHeaders: [("Content-Type", "application/json")]
        + (item.requestHeader.map { [$0] } ?? []),
      status: item.status,
      responseHeaders: [("Content-Type", "application/json")]
        + (item.responseHeader.map { [$0] } ?? []))
  }

  @Test("lint reports the field", arguments: cases)
  func lint(_ item: Case) throws {
    let data = try HARBuilder.cassette([HARBuilder.entry(), Self.entry(item)])
    let findings = CassetteLinter.lint(data: data, file: "x.har").filter { $0.kind == .schema }
    #expect(findings.contains { $0.location.hasPrefix("log.entries[1].\(item.field)") })
  }

  @Test("import refuses the file, naming the field", arguments: cases)
  func importRefuses(_ item: Case) throws {
    let data = try HARBuilder.export([HARBuilder.entry(), Self.entry(item)])
    #expect {
      _ = try HARImporter.importHAR(data: data, secrets: [])
    } throws: { error in
      "\(error)".contains("entries[1].\(item.field)")
    }
  }

  @Test("loading is a typed error naming the field", arguments: cases)
  func load(_ item: Case) throws {
    let data = try HARBuilder.cassette([HARBuilder.entry(), Self.entry(item)])
    #expect {
      _ = try Cassette.decode(data)
    } throws: { error in
      (error as? CassetteError).map { "\($0)".contains("entries[1]") } ?? false
    }
  }

  @Test("replay of a cassette built in memory is a typed error", arguments: cases)
  func replay(_ item: Case) async throws {
    let data = try HARBuilder.cassette([Self.entry(item)])
    let cassette = try JSONDecoder().decode(Cassette.self, from: data)
    let replay = ReplayTransport(cassette: cassette)
    await #expect {
      _ = try await replay.send(
        HTTPRequest(
          method: .post,
          url: Fixture.url("https://identitytoolkit.googleapis.com/v1/accounts:lookup"),
          headerFields: ["Content-Type": "application/json"]))
    } throws: { error in
      guard case .badCassette = error as? ReplayError else { return false }
      return true
    }
  }

  @Test("the bounds and what HAR exports hold still pass: 100, 599, tabs, pseudo-headers")
  func goodValuesPass() throws {
    let entries = [
      HARBuilder.entry(status: 100),
      HARBuilder.entry(
        requestHeaders: [(":authority", "identitytoolkit.googleapis.com"), ("Accept", "a\tb")],
        status: 599, responseHeaders: [("Content-Type", "application/json"), ("X-Ok", "é ü")]),
    ]
    let cassette = try HARImporter.importHAR(data: try HARBuilder.export(entries), secrets: [])
    #expect(cassette.entries.map(\.response.status) == [100, 599])
    let lint = CassetteLinter.lint(data: try cassette.encoded(), file: "x.har")
    #expect(lint.isEmpty)
    #expect(try Cassette.decode(try cassette.encoded()).entries.count == 2)
  }
}
