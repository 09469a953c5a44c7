import BackendHTTP
import Foundation
import UserBackendKit

/// A test transport: records every request and answers from a handler; counts calls.
final class StubTransport: HTTPTransport {
  typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

  private let recorded = LockedValue<[HTTPRequest]>([])
  private let handler: Handler

  init(_ handler: @escaping Handler) { self.handler = handler }

  /// Answers every request with `status` and a JSON body.
  convenience init(status: Int = 200, json: String) {
    self.init { _ in StubTransport.json(status, json) }
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    recorded.withLock { $0.append(request) }
    return try await handler(request)
  }

  var requests: [HTTPRequest] { recorded.withLock { $0 } }
  var count: Int { recorded.withLock { $0.count } }

  static func json(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headerFields: ["Content-Type": "application/json; charset=UTF-8"],
      body: Data(body.utf8))
  }
}
