#if canImport(CCurl)
  import CCurl
  import Foundation

  /// The network transport on Linux: sends an ``HTTPRequest`` with the system's libcurl
  /// and returns the ``HTTPResponse``, whatever its status. ``NetworkTransport/standard()``
  /// picks it on Linux; Apple platforms use ``URLSessionTransport``.
  ///
  /// It keeps the promises of ``URLSessionTransport`` (same timeouts, answer-size limit,
  /// error mapping and secret-free messages) with less machinery between the caller and
  /// the socket: FoundationNetworking's URLSession is itself built on libcurl, and on a
  /// loopback sign-in its queues and object conversions cost about as much as the request
  /// (`baas bench --only peers` shows both). One libcurl multi handle per transport, driven
  /// by one thread of its own that starts with the first request and ends with the
  /// transport; no cooperative-pool thread ever waits on the network.
  ///
  /// - Connections: kept alive and reused between requests of the same transport.
  /// - Timeouts: `HTTPRequest.timeout` seconds, or ``defaultTimeout`` when that is `nil`,
  ///   as a deadline for the whole exchange (connecting included).
  /// - Cookies: neither stored nor sent. Caches: none. Proxies: libcurl's environment
  ///   variables (`http_proxy`, `https_proxy`, `no_proxy`), as URLSession on Linux.
  /// - Redirects: never followed; a 3xx answer is returned as it is (see
  ///   ``URLSessionTransport``).
  /// - Request header fields go out in the request's order, repeated names as repeated
  ///   lines; libcurl adds `Host`, `Accept: */*` and `Content-Length`, and nothing else:
  ///   no `Expect: 100-continue`, no default `Content-Type`. `Accept-Encoding: identity`
  ///   is sent when the request names no encoding, and bodies are returned as received
  ///   (never inflated), so a small hostile answer cannot grow past the limit.
  /// - Response header fields come back in the server's order (repeated names as
  ///   repeated fields); bytes that are not UTF-8 are read as ISO 8859-1.
  /// - Answer bodies are read up to ``maximumResponseBodyBytes``; past it (declared or
  ///   received) the request ends with ``HTTPTransportError/responseTooLarge(limit:)``.
  ///
  /// Errors: ``HTTPTransportError`` (see ``transportError(forCurlCode:)``) or
  /// `CancellationError` when the calling task is cancelled. No message contains the URL or
  /// a header value.
  public final class CurlTransport: HTTPTransport {
    /// The timeout in seconds for requests whose `timeout` is `nil`.
    public let defaultTimeout: TimeInterval
    /// The largest answer body this transport reads, in bytes.
    public let maximumResponseBodyBytes: Int
    private let loop: CurlMultiLoop

    /// A transport with its own libcurl multi handle (and so its own connections).
    /// - Parameters:
    ///   - defaultTimeout: seconds for requests without their own timeout (> 0; a
    ///     non-positive or NaN value falls back to
    ///     ``URLSessionTransport/standardTimeout``, 30 s; at most one day).
    ///   - maximumResponseBodyBytes: the largest answer body read, in bytes (default 10 MiB;
    ///     values below 1 mean 1).
    public init(
      defaultTimeout: TimeInterval = URLSessionTransport.standardTimeout,
      maximumResponseBodyBytes: Int = URLSessionTransport.standardMaximumResponseBodyBytes
    ) {
      self.defaultTimeout =
        URLSessionTransport.usableTimeout(defaultTimeout) ?? URLSessionTransport.standardTimeout
      self.maximumResponseBodyBytes = max(1, maximumResponseBodyBytes)
      loop = CurlMultiLoop()
    }

    deinit { loop.stop() }

    /// Sends `request` and returns the response, with any status.
    /// - Throws: ``HTTPTransportError`` when no response arrives (an unsupported URL
    ///   scheme or a URL with a user name or password; a method or field name that is not a token, a field value with a line
    ///   break or NUL, a `Transfer-Encoding` field or a `Content-Length` other than the
    ///   body's: all before any network use);
    ///   `CancellationError` when the task is cancelled before or during the request.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      try Task.checkCancellation()
      let timeout = URLSessionTransport.usableTimeout(request.timeout) ?? defaultTimeout
      let transfer = try CurlTransfer(
        request: request, timeout: timeout, limit: maximumResponseBodyBytes)
      let loop = self.loop
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          guard transfer.wait(with: continuation) else { return }
          do {
            try loop.add(transfer)
          } catch {
            transfer.end(.failure(error))
          }
        }
      } onCancel: {
        if transfer.end(.failure(CancellationError())) { loop.remove(transfer) }
      }
    }

    /// The ``HTTPTransportError`` for a libcurl result code, by code only: a fixed phrase
    /// plus the number, never the URL or libcurl's own message (which may quote the host).
    public static func transportError(forCurlCode code: Int) -> HTTPTransportError {
      let loaderCode = "curl error \(code)"
      switch CURLcode(UInt32(clamping: max(0, code))) {
      case CURLE_OPERATION_TIMEDOUT:
        return .timedOut
      case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
        return LoaderFailure.hostNotResolved.error(loaderCode)
      case CURLE_COULDNT_CONNECT:
        return LoaderFailure.refused.error(loaderCode)
      case CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
        return LoaderFailure.connectionLost.error(loaderCode)
      case CURLE_RECV_ERROR:
        // libcurl also reports an oversized header block or a broken chunk size this way.
        return .connectionFailed(
          reason: "the answer could not be read: the connection was lost or the answer "
            + "was malformed (\(loaderCode))")
      case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
        CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
        CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT,
        CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_ENGINE_NOTFOUND,
        CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
        return LoaderFailure.tls.error(loaderCode)
      case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
        CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_RANGE_ERROR:
        return LoaderFailure.unusableResponse.error(loaderCode)
      case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
        return LoaderFailure.unsupportedURL.error(loaderCode)
      case CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR:
        return LoaderFailure.authenticationAsked.error(loaderCode)
      case CURLE_OUT_OF_MEMORY, CURLE_WRITE_ERROR:
        // The connection worked; the answer could not be held: libcurl 7.x reports a
        // header line past its limit (100 KiB) as out of memory (27), and a header our
        // callback refused as a write error (23).
        return LoaderFailure.answerTooLarge.error(loaderCode)
      default:
        // 100 is CURLE_TOO_LARGE (libcurl 8.6 on): a header past its limit.
        if code == 100 { return LoaderFailure.answerTooLarge.error(loaderCode) }
        return .connectionFailed(reason: loaderCode)
      }
    }
  }
#endif
