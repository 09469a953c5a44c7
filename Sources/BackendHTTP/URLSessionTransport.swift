import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The network transport: sends an ``HTTPRequest`` with its own `URLSession` (one data
/// task per request) and returns the ``HTTPResponse``, whatever its status.
///
/// The session is private to the transport and stateless between requests: no cookie
/// storage (cookies are neither sent nor accepted), no URL cache (every request goes to the
/// server). Each request gets `HTTPRequest.timeout` seconds, or ``defaultTimeout`` when that
/// is `nil`; URLSession applies it as the longest quiet period while waiting for data.
///
/// Header fields go out in the request's order, as far as `URLRequest` allows: repeated
/// names are joined into one comma-separated field. Response fields come back sorted by
/// name, since `HTTPURLResponse` does not keep the server's order.
///
/// Redirects are never followed: a 3xx answer is returned as it is, so the request's
/// credentials (signature, keys, session token) never reach the `Location` address. The
/// adapters then refuse it (see `sendForBackend(_:)`).
///
/// Answer bodies are read up to ``maximumResponseBodyBytes`` (10 MiB by default); past it the
/// request ends at once with ``HTTPTransportError/responseTooLarge(limit:)``, so a hostile
/// or broken server cannot make the process hold an unbounded answer.
///
/// On Linux a request to an IPv6 literal host (`http://[::1]:9099/…`) is refused before
/// connecting with ``HTTPTransportError/invalidRequest(reason:)``: FoundationNetworking
/// cannot reach one (see ``URLLoaderSupport/acceptsIPv6LiteralHosts``). ``CurlTransport``,
/// the default there, can.
///
/// Errors: ``HTTPTransportError`` (see ``transportError(for:)``) or `CancellationError` when
/// the calling task is cancelled. No message ever contains the URL (its query may carry an
/// API key) or a header value.
public final class URLSessionTransport: HTTPTransport {
  /// The timeout used when a request does not set one: 30 seconds.
  public static let standardTimeout: TimeInterval = 30

  /// The largest answer body read by default: 10 MiB. No answer of the user-account APIs
  /// comes near it.
  public static let standardMaximumResponseBodyBytes = 10 * 1024 * 1024

  /// The timeout in seconds for requests whose `timeout` is `nil`.
  public let defaultTimeout: TimeInterval
  /// The largest answer body this transport reads, in bytes.
  public let maximumResponseBodyBytes: Int
  private let session: URLSession
  private let delegate = SessionDelegate()

  /// A transport with its own ephemeral, cookie-less, cache-less session.
  /// - Parameters:
  ///   - defaultTimeout: seconds for requests without their own timeout (> 0; a
  ///     non-positive or NaN value falls back to ``standardTimeout``; at most
  ///     ``maximumTimeout``).
  ///   - maximumResponseBodyBytes: the largest answer body read, in bytes (default
  ///     ``standardMaximumResponseBodyBytes``; values below 1 mean 1). A larger answer is
  ///     refused with ``HTTPTransportError/responseTooLarge(limit:)`` as soon as its
  ///     `Content-Length` or its bytes pass the limit: it is never held in memory whole.
  public init(
    defaultTimeout: TimeInterval = URLSessionTransport.standardTimeout,
    maximumResponseBodyBytes: Int = URLSessionTransport.standardMaximumResponseBodyBytes
  ) {
    self.defaultTimeout = Self.usableTimeout(defaultTimeout) ?? Self.standardTimeout
    self.maximumResponseBodyBytes = max(1, maximumResponseBodyBytes)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = self.defaultTimeout
    session = URLSession(
      configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit { session.finishTasksAndInvalidate() }

  /// Sends `request` and returns the response, with any status.
  /// - Throws: ``HTTPTransportError`` when no response arrives; `CancellationError` when
  ///   the task is cancelled before or during the request.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    let timeout = Self.usableTimeout(request.timeout) ?? defaultTimeout
    let urlRequest = try makeURLRequest(request, timeout: timeout)
    // URLSession on Linux rounds timeouts down to whole seconds (0.5 s would expire at
    // once), so the exact deadline is a racing sleep; URLSession's own is a backstop.
    return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
      group.addTask { try await self.perform(urlRequest) }
      group.addTask {
        try await Task.sleep(for: .seconds(timeout))
        throw HTTPTransportError.timedOut
      }
      defer { group.cancelAll() }
      guard let response = try await group.next() else { throw CancellationError() }
      return response
    }
  }

  private func perform(_ urlRequest: URLRequest) async throws -> HTTPResponse {
    let collector = ResponseCollector(limit: maximumResponseBodyBytes)
    let task = session.dataTask(with: urlRequest)
    delegate.register(collector, for: task)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        collector.start(task, continuation: continuation)
      }
    } onCancel: {
      collector.cancel()
    }
  }

  /// The longest timeout applied: one day. A longer one (up to `.infinity`) is cut to it.
  public static let maximumTimeout: TimeInterval = 86_400

  /// `seconds` as a timeout: `nil` when it is missing, not positive or NaN; at most
  /// ``maximumTimeout`` (a huge value from a configuration file would otherwise trap
  /// when converted to a `Duration`).
  static func usableTimeout(_ seconds: TimeInterval?) -> TimeInterval? {
    guard let seconds, seconds > 0 else { return nil }  // also false for NaN
    return min(seconds, maximumTimeout)
  }

  /// The `URLRequest` for `request`: method, URL, headers in order, body and timeout.
  /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` for a request that cannot go
  ///   on the wire as it says (see ``HTTPRequest/checkSendable()``), or, on Linux, whose
  ///   host is an IPv6 literal (`http://[::1]:9099/…`): FoundationNetworking cannot reach
  ///   one, so the request is refused before any connection, with
  ///   ``URLLoaderSupport/ipv6LiteralReason`` (use `127.0.0.1`, `localhost`, or
  ///   ``CurlTransport``).
  func makeURLRequest(_ request: HTTPRequest, timeout: TimeInterval) throws -> URLRequest {
    try request.checkSendable()
    if let host = request.url.host, URLLoaderSupport.rejects(host: host) {
      throw HTTPTransportError.invalidRequest(reason: URLLoaderSupport.ipv6LiteralReason)
    }
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.timeoutInterval = max(1, timeout.rounded(.up))
    urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
    urlRequest.httpShouldHandleCookies = false
    // A Content-Length field is the body's own (checked above): URLSession writes it.
    for field in request.headerFields where field.name.lowercased() != "content-length" {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    // Ask for answers as they are: URLSession would otherwise offer gzip, deflate, br and
    // zstd and inflate whatever comes, so a few hundred kilobytes from a hostile server
    // could grow to gigabytes before any size check (the services' answers are small).
    if request.headerFields["Accept-Encoding"] == nil {
      urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    }
    if !request.body.isEmpty { urlRequest.httpBody = request.body }
    return urlRequest
  }

  /// The response's header fields, sorted by name (case-insensitive) for a stable order.
  static func fields(of response: HTTPURLResponse) -> HTTPFields {
    var pairs: [(String, String)] = []
    for (name, value) in response.allHeaderFields {
      pairs.append((String(describing: name), String(describing: value)))
    }
    pairs.sort { $0.0.lowercased() < $1.0.lowercased() }
    return HTTPFields(pairs.map { HTTPFields.Field(name: $0.0, value: $0.1) })
  }

  /// Maps any error from `URLSession` to ``HTTPTransportError`` (a `URLError` by its code,
  /// anything else as a connection failure naming only the error's type).
  static func mapError(_ error: any Error) -> any Error {
    if error is CancellationError { return error }
    if let urlError = error as? URLError {
      if urlError.code == .cancelled { return CancellationError() }
      return transportError(for: urlError)
    }
    return HTTPTransportError.connectionFailed(reason: "\(type(of: error))")
  }

  /// The ``HTTPTransportError`` for a `URLError`, by code only: the message is a fixed
  /// phrase plus the numeric code, never the URL or the system's description.
  public static func transportError(for error: URLError) -> HTTPTransportError {
    let code = error.code.rawValue
    let loaderCode = "URLError \(code)"
    switch error.code {
    case .timedOut:
      return .timedOut
    case .cannotFindHost, .dnsLookupFailed:
      return LoaderFailure.hostNotResolved.error(loaderCode)
    case .cannotConnectToHost:
      return LoaderFailure.refused.error(loaderCode)
    case .networkConnectionLost:
      return LoaderFailure.connectionLost.error(loaderCode)
    case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed,
      .callIsActive:
      return LoaderFailure.networkUnavailable.error(loaderCode)
    case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
      .clientCertificateRejected, .clientCertificateRequired:
      return LoaderFailure.tls.error(loaderCode)
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
      .cannotDecodeContentData, .zeroByteResource, .dataLengthExceedsMaximum,
      .httpTooManyRedirects, .redirectToNonExistentLocation:
      return LoaderFailure.unusableResponse.error(loaderCode)
    case .badURL, .unsupportedURL:
      return LoaderFailure.unsupportedURL.error(loaderCode)
    case .userAuthenticationRequired, .userCancelledAuthentication:
      return LoaderFailure.authenticationAsked.error(loaderCode)
    default:
      return .connectionFailed(reason: loaderCode)
    }
  }
}
