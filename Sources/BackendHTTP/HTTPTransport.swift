/// Sends one HTTP request and returns its response. Implementations: `URLSessionTransport`
/// (the network), `EmulatorTransport` (in-process emulator), `RecordingTransport` and
/// `ReplayTransport` (cassettes), and test doubles.
///
/// A response with any status is returned, not thrown; only a failure to get a response
/// throws (``HTTPTransportError``, or `CancellationError` when the task is cancelled).
public protocol HTTPTransport: Sendable {
  /// Sends `request`.
  /// - Throws: ``HTTPTransportError`` or `CancellationError`.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Why no response came back. Messages never contain the request URL's query (which
/// may hold an API key) or any header value.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request did not finish within its timeout.
  case timedOut
  /// The host could not be reached (DNS, refused, reset, offline).
  case connectionFailed(reason: String)
  /// The connection produced something that is not an HTTP response.
  case invalidResponse(reason: String)
  /// The request itself could not be sent (for example an unsupported URL scheme).
  case invalidRequest(reason: String)
  /// The answer's body is larger than `limit` bytes (declared or received); it was not
  /// read further.
  case responseTooLarge(limit: Int)

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .timedOut: "the request timed out"
    case .connectionFailed(let reason): "connection failed: \(reason)"
    case .invalidResponse(let reason): "invalid response: \(reason)"
    case .invalidRequest(let reason): "invalid request: \(reason)"
    case .responseTooLarge(let limit): "the answer's body is larger than \(limit) bytes"
    }
  }
}

/// A step between a client and a transport: may change the request, short-circuit with a
/// response, or post-process the response.
public protocol HTTPMiddleware: Sendable {
  /// Handles `request`, calling `next` to continue down the chain.
  func intercept(
    _ request: HTTPRequest,
    next: @Sendable (HTTPRequest) async throws -> HTTPResponse
  ) async throws -> HTTPResponse
}

/// A transport wrapped in middleware. The first middleware in the list sees the request
/// first (and the response last).
public struct MiddlewareTransport: HTTPTransport {
  /// The transport at the end of the chain.
  public let transport: any HTTPTransport
  /// The middleware, outermost first.
  public let middlewares: [any HTTPMiddleware]

  /// Wraps `transport` in `middlewares` (outermost first).
  public init(_ transport: any HTTPTransport, middlewares: [any HTTPMiddleware]) {
    self.transport = transport
    self.middlewares = middlewares
  }

  /// Runs the chain.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await call(index: 0, request)
  }

  private func call(index: Int, _ request: HTTPRequest) async throws -> HTTPResponse {
    guard index < middlewares.count else { return try await transport.send(request) }
    return try await middlewares[index].intercept(request) { next in
      try await call(index: index + 1, next)
    }
  }
}
