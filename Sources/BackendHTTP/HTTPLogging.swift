import Foundation

/// One HTTP exchange, as logged: method, URL with every query value and any user
/// information removed, status (or the failure), and duration. Holds no header, no body and
/// no query value, so it never carries a key, a token or a password.
public struct HTTPExchangeRecord: Sendable, Hashable, CustomStringConvertible {
  /// The method, e.g. `POST`.
  public var method: HTTPMethod
  /// The URL with query values replaced by `<redacted>` (names kept), no user
  /// information and no fragment, e.g. `https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=<redacted>`.
  public var redactedURL: String
  /// The response status, or `nil` when no response came back.
  public var status: Int?
  /// Why no response came back (``HTTPTransportError``'s description, or the error type),
  /// when `status` is `nil`.
  public var failure: String?
  /// Wall time from send to response (or failure), in whole milliseconds.
  public var durationMilliseconds: Int

  /// A record.
  public init(
    method: HTTPMethod, redactedURL: String, status: Int?, failure: String? = nil,
    durationMilliseconds: Int
  ) {
    self.method = method
    self.redactedURL = redactedURL
    self.status = status
    self.failure = failure
    self.durationMilliseconds = durationMilliseconds
  }

  /// The log line: `POST https://host/path?key=<redacted> 200 12ms`, or
  /// `POST https://host/path failed (the request timed out) 30000ms`.
  public var description: String {
    let outcome = status.map(String.init) ?? "failed (\(failure ?? "no response"))"
    return "\(method) \(redactedURL) \(outcome) \(durationMilliseconds)ms"
  }

  /// `url` as logged: every query value replaced by `<redacted>` (names kept, so
  /// `key=<redacted>` shows a key was sent), user information and fragment removed, and
  /// what cannot be read as `name=value` redacted whole: a bare query item and a path
  /// segment's parameters (``LoggedRequestTarget``). Path segments are kept otherwise:
  /// none of the services puts a secret in a path.
  public static func redact(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return "(unparsable URL)"
    }
    components.user = nil
    components.password = nil
    components.fragment = nil
    let query = components.percentEncodedQuery
    let path = components.percentEncodedPath
    components.percentEncodedQuery = nil
    components.percentEncodedPath = ""
    guard let base = components.string else { return "(unparsable URL)" }
    // Built as text: `<redacted>` is not valid in a URL, and this is never parsed again.
    let target = base + LoggedRequestTarget.path(path)
    guard let query else { return target }
    return target + "?" + LoggedRequestTarget.query(query)
  }
}

/// Where exchange records go: a closure, called once per HTTP exchange (from any task).
/// ``none`` drops them. `baas --verbose` passes one that prints to standard error.
public struct HTTPLogger: Sendable {
  /// Receives each record.
  public let log: @Sendable (HTTPExchangeRecord) -> Void

  /// A logger calling `log` for each record.
  public init(_ log: @escaping @Sendable (HTTPExchangeRecord) -> Void) { self.log = log }

  /// Drops every record (the default).
  public static let none = HTTPLogger { _ in }

  /// `transport` with a ``LoggingMiddleware`` for this logger in front of it.
  public func wrapping(_ transport: any HTTPTransport) -> any HTTPTransport {
    MiddlewareTransport(transport, middlewares: [LoggingMiddleware(logger: self)])
  }
}

/// Middleware that logs one ``HTTPExchangeRecord`` per request: after the response (or
/// the failure, which is rethrown unchanged).
public struct LoggingMiddleware: HTTPMiddleware {
  /// Where records go.
  public let logger: HTTPLogger

  /// Logs to `logger`.
  public init(logger: HTTPLogger) { self.logger = logger }

  /// Passes `request` on, then logs the exchange.
  public func intercept(
    _ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    let clock = ContinuousClock()
    let start = clock.now
    func milliseconds() -> Int {
      let elapsed = clock.now - start
      return Int(elapsed.components.seconds) * 1000
        + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
    let url = HTTPExchangeRecord.redact(request.url)
    do {
      let response = try await next(request)
      logger.log(
        HTTPExchangeRecord(
          method: request.method, redactedURL: url, status: response.status,
          durationMilliseconds: milliseconds()))
      return response
    } catch {
      let failure =
        (error as? HTTPTransportError)?.description ?? String(describing: type(of: error))
      logger.log(
        HTTPExchangeRecord(
          method: request.method, redactedURL: url, status: nil, failure: failure,
          durationMilliseconds: milliseconds()))
      throw error
    }
  }
}
