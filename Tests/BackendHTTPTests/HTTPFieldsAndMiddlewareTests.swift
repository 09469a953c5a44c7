import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@Suite("HTTPFields", .timeLimit(.minutes(2)))
struct HTTPFieldsTests {
  @Test("lookups ignore the case of names")
  func caseInsensitiveLookup() {
    let fields: HTTPFields = ["Content-Type": "application/json", "X-NCMB-Timestamp": "t"]
    #expect(fields["content-type"] == "application/json")
    #expect(fields["x-ncmb-timestamp"] == "t")
    #expect(fields.contains("CONTENT-TYPE"))
    #expect(fields["Authorization"] == nil)
  }

  @Test("order and spelling are kept; setting replaces in place")
  func orderKept() {
    var fields: HTTPFields = ["B": "1", "a": "2", "C": "3"]
    fields.append(name: "a", value: "4")
    #expect(fields.map(\.name) == ["B", "a", "C", "a"])
    #expect(fields.values(for: "A") == ["2", "4"])
    fields["A"] = "5"
    #expect(fields.map(\.name) == ["B", "a", "C"])
    #expect(fields["a"] == "5")
    fields.remove("b")
    #expect(fields.map(\.name) == ["a", "C"])
  }

  @Test("equality ignores name case but not order")
  func equality() {
    let lower: HTTPFields = ["x-a": "1", "x-b": "2"]
    let upper: HTTPFields = ["X-A": "1", "X-B": "2"]
    let swapped: HTTPFields = ["X-B": "2", "X-A": "1"]
    #expect(lower == upper)
    #expect(lower.hashValue == upper.hashValue)
    #expect(lower != swapped)
  }
}

@Suite("MiddlewareTransport", .timeLimit(.minutes(2)))
struct MiddlewareTransportTests {
  private struct Tagging: HTTPMiddleware {
    let tag: String
    let log: Log
    func intercept(
      _ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
      log.append("\(tag)>")
      var request = request
      request.headerFields.append(name: "X-Seen", value: tag)
      var response = try await next(request)
      log.append("<\(tag)")
      response.headerFields.append(name: "X-Back", value: tag)
      return response
    }
  }

  final class Log: Sendable {
    private let entries = LockedValue<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  private struct Terminal: HTTPTransport {
    let log: Log
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      log.append("send:" + request.headerFields.values(for: "X-Seen").joined(separator: ","))
      return HTTPResponse(status: 200)
    }
  }

  @Test("the first middleware sees the request first and the response last")
  func order() async throws {
    let log = Log()
    let transport = MiddlewareTransport(
      Terminal(log: log),
      middlewares: [Tagging(tag: "first", log: log), Tagging(tag: "second", log: log)])
    let url = try #require(URL(string: "https://example.com/"))
    let response = try await transport.send(HTTPRequest(method: .get, url: url))
    #expect(log.all == ["first>", "second>", "send:first,second", "<second", "<first"])
    #expect(response.headerFields.values(for: "X-Back") == ["second", "first"])
  }
}
