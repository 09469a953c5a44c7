#if canImport(CCurl)
  import CCurl
  import Foundation

  /// One request on a libcurl easy handle: set up from an ``HTTPRequest``, fed by libcurl's
  /// header and write callbacks on the loop thread, and ending exactly once: with the
  /// response, the mapped error, ``HTTPTransportError/responseTooLarge(limit:)`` or
  /// `CancellationError`.
  ///
  /// The header lines, body and flags are touched only by the loop thread (callbacks and
  /// ``complete(_:)``); the caller's continuation and the outcome are under the lock.
  final class CurlTransfer: @unchecked Sendable {
    /// The easy handle; cleaned up with the transfer (after the loop removed it).
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let limit: Int
    private var body = Data()
    private var fields: [HTTPFields.Field] = []
    private var tooLarge = false
    /// Whether the current answer's header block has ended (later lines are trailers).
    private var headerEnded = false

    private let lock = NSLock()
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var outcome: Result<HTTPResponse, any Error>?

    /// Sets up the easy handle for `request`.
    /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` for a URL that is not
    ///   `http` or `https` or has a user name or password, a method or header field name that is not a token, a header
    ///   value with a line break or NUL, a `Transfer-Encoding` field, or a `Content-Length`
    ///   field other than the body's length (the reason names the field, never its value);
    ///   ``HTTPTransportError/connectionFailed(reason:)`` when libcurl has no handle.
    init(request: HTTPRequest, timeout: TimeInterval, limit: Int) throws {
      try request.checkSendable()
      let headers = Self.headerLines(for: request)
      _ = CurlMultiLoop.globalInit
      guard let easy = curl_easy_init() else {
        throw HTTPTransportError.connectionFailed(reason: "libcurl could not start a request")
      }
      self.easy = easy
      self.limit = limit
      for line in headers { headerList = curl_slist_append(headerList, line) }
      configure(request, timeout: timeout)
    }

    deinit {
      curl_easy_cleanup(easy)
      curl_slist_free_all(headerList)
    }

    /// The header lines sent: the request's fields in order, `Accept-Encoding: identity`
    /// unless the request names one, and the lines that turn off libcurl's own `Expect`
    /// and default `Content-Type` (a field with an empty value is written `Name;`, which
    /// is how libcurl sends an empty value).
    static func headerLines(for request: HTTPRequest) -> [String] {
      var lines: [String] = []
      var hasContentType = false
      // The request passed `checkSendable()`: names are tokens, values have no line
      // breaks, there is no Transfer-Encoding and any Content-Length is the body's.
      for field in request.headerFields {
        let name = field.name
        switch name.lowercased() {
        case "content-type": hasContentType = true
        case "content-length": continue  // libcurl writes the body's own length
        default: break
        }
        let value = field.value.trimmingCharacters(in: .whitespaces)
        lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
      }
      if request.headerFields["Accept-Encoding"] == nil {
        lines.append("Accept-Encoding: identity")
      }
      lines.append("Expect:")
      if !hasContentType { lines.append("Content-Type:") }
      return lines
    }

    private func configure(_ request: HTTPRequest, timeout: TimeInterval) {
      let milliseconds = Int(min(timeout * 1000, Double(Int32.max)).rounded(.up))
      setLong(CURLOPT_NOSIGNAL, 1)
      setLong(CURLOPT_TIMEOUT_MS, milliseconds)
      setLong(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
      setLong(CURLOPT_FOLLOWLOCATION, 0)
      setLong(CURLOPT_PATH_AS_IS, 1)
      // A HEAD answer's Content-Length describes a body that never comes: no limit applies.
      if request.method != .head { setOffset(CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)) }
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https")
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_URL, request.url.absoluteString)
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList))

      let method = request.method.rawValue
      let sendsBody = !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)
      switch method {
      case "GET" where !sendsBody: setLong(CURLOPT_HTTPGET, 1)
      case "HEAD": setLong(CURLOPT_NOBODY, 1)
      case "POST": setLong(CURLOPT_POST, 1)
      default: _ = ubk_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, method)
      }
      if sendsBody && method != "HEAD" {
        setOffset(CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
        request.body.withUnsafeBytes { bytes in
          // Copied by libcurl (the size is set first, so NUL bytes are kept).
          _ = ubk_curl_setopt_pointer(
            easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1))
        }
      }

      let me = Unmanaged.passUnretained(self).toOpaque()
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_PRIVATE, me)
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
      _ = ubk_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
      _ = ubk_curl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
      _ = ubk_curl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback)
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
      _ = ubk_curl_setopt_long(easy, option, value)
    }

    private func setOffset(_ option: CURLoption, _ value: curl_off_t) {
      _ = ubk_curl_setopt_offset(easy, option, value)
    }

    // MARK: Loop thread

    /// One header line from libcurl (with its line ending). A status line starts the
    /// fields afresh, so only the final answer's fields are kept (not a `100 Continue`'s);
    /// the blank line ends them, so trailer fields after a chunked body are not kept either.
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
      var line = bytes[...]
      while let last = line.last, last == 10 || last == 13 { line = line.dropLast() }
      if line.starts(with: "HTTP/".utf8) {
        fields.removeAll()
        headerEnded = false
        return
      }
      if line.isEmpty { headerEnded = true }
      if headerEnded { return }
      if let first = line.first, first == 32 || first == 9, let previous = fields.popLast() {
        // An obsolete folded continuation: part of the previous field's value.
        let more = Self.text(line).trimmingCharacters(in: .whitespaces)
        fields.append(HTTPFields.Field(name: previous.name, value: previous.value + " " + more))
        return
      }
      guard let colon = line.firstIndex(of: 58) else { return }
      let name = Self.text(line[..<colon])
      let value = Self.text(line[(colon + 1)...]).trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { return }
      fields.append(HTTPFields.Field(name: name, value: value))
    }

    /// Body bytes from libcurl; false once the body would pass the limit (the transfer
    /// then stops with a write error, read as ``HTTPTransportError/responseTooLarge(limit:)``).
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
      guard body.count + bytes.count <= limit else {
        tooLarge = true
        body = Data()
        return false
      }
      body.append(contentsOf: bytes)
      return true
    }

    /// libcurl finished the transfer with `code`: ends it with the response or the error.
    func complete(_ code: CURLcode) {
      if tooLarge || code == CURLE_FILESIZE_EXCEEDED {
        end(.failure(HTTPTransportError.responseTooLarge(limit: limit)))
        return
      }
      if code == CURLE_UNSUPPORTED_PROTOCOL {
        // The scheme was checked before sending, so this is libcurl refusing a reply that
        // is not HTTP (it reads one without a status line as HTTP/0.9).
        end(
          .failure(
            HTTPTransportError.invalidResponse(reason: "the reply is not HTTP (curl error 1)")))
        return
      }
      guard code == CURLE_OK else {
        end(.failure(CurlTransport.transportError(forCurlCode: Int(code.rawValue))))
        return
      }
      let status = ubk_curl_response_code(easy)
      let headerFields = HTTPFields(fields)
      if let problem = AnswerFraming.problem(status: status, headerFields) {
        end(.failure(problem))
        return
      }
      end(.success(HTTPResponse(status: status, headerFields: headerFields, body: body)))
    }

    /// Header bytes as text: UTF-8 when they are, ISO 8859-1 otherwise.
    private static func text(_ bytes: some Collection<UInt8>) -> String {
      if let text = String(validating: bytes, as: UTF8.self) { return text }
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    // MARK: Either thread

    /// Keeps `continuation` for the answer; false when the transfer already ended (it was
    /// cancelled first), in which case the caller has its outcome and nothing is sent.
    func wait(with continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
      lock.lock()
      if let outcome {
        lock.unlock()
        continuation.resume(with: outcome)
        return false
      }
      self.continuation = continuation
      lock.unlock()
      return true
    }

    /// Whether the transfer has ended.
    var hasEnded: Bool { lock.withLock { outcome != nil } }

    /// Records the first outcome and resumes the caller with it; true when this call
    /// ended the transfer (later outcomes are ignored).
    @discardableResult
    func end(_ result: Result<HTTPResponse, any Error>) -> Bool {
      lock.lock()
      guard outcome == nil else {
        lock.unlock()
        return false
      }
      outcome = result
      let waiting = continuation
      continuation = nil
      lock.unlock()
      waiting?.resume(with: result)
      return true
    }
  }

  /// libcurl's header callback: one line per call, `userdata` is the ``CurlTransfer``.
  private let curlHeaderCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    transfer.receiveHeader(UnsafeRawBufferPointer(start: buffer, count: length))
    return length
  }

  /// libcurl's write callback: body bytes; answering less than given stops the transfer.
  private let curlWriteCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
  }
#endif
