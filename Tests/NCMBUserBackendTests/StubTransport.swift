import BackendHTTP
import Foundation
import UserBackendKit

/// A transport for tests: records every request and answers from a script, in order.
final class StubTransport: HTTPTransport {
  /// One scripted outcome.
  enum Outcome: Sendable {
    case response(HTTPResponse)
    case failure(HTTPTransportError)
  }

  private let state: LockedValue<(outcomes: [Outcome], requests: [HTTPRequest])>

  /// A transport that answers with `outcomes`, one per request.
  init(_ outcomes: [Outcome] = []) { state = LockedValue((outcomes, [])) }

  /// A transport that answers every request with status `status` and a JSON body.
  convenience init(status: Int, json: String, headers: HTTPFields = [:]) {
    self.init([
      .response(HTTPResponse(status: status, headerFields: headers, body: Data(json.utf8)))
    ])
  }

  /// Appends outcomes.
  func enqueue(_ outcomes: Outcome...) { state.withLock { $0.outcomes += outcomes } }

  /// Appends a JSON response.
  func enqueue(status: Int, json: String) {
    enqueue(.response(HTTPResponse(status: status, body: Data(json.utf8))))
  }

  /// The requests sent so far.
  var requests: [HTTPRequest] { state.withLock { $0.requests } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let outcome: Outcome? = state.withLock { state in
      state.requests.append(request)
      return state.outcomes.isEmpty ? nil : state.outcomes.removeFirst()
    }
    switch outcome {
    case .response(let response): return response
    case .failure(let error): throw error
    case nil: throw HTTPTransportError.connectionFailed(reason: "no scripted response")
    }
  }
}
