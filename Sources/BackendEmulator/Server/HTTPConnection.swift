import BackendHTTP
import Dispatch
import Foundation
import UserBackendKit

/// Serves one client connection on its own thread: reads requests (keep-alive), hands
/// each to the handler, writes the responses, enforces the limits and timeouts in
/// ``EmulatorServer/Limits``.
struct HTTPConnection {
  let stream: SocketStream
  let limits: EmulatorServer.Limits
  let handler: EmulatorServer.Handler
  /// `true` once the server is stopping: finish the current exchange, then close.
  let isStopping: @Sendable () -> Bool
  /// Receives one line for a connection closed without an answer; `nil` drops them.
  var notices: EmulatorServer.NoticeHandler? = nil
  /// Chooses each request's body limit and refusal; `nil` applies
  /// ``EmulatorServer/Limits/maxBodyBytes`` with a plain-text `413`.
  var bodyLimit: EmulatorServer.BodyLimitRule? = nil

  /// How the socket should be closed once ``run()`` returns.
  enum CloseMode { case immediate, lingering }

  /// Serves requests until the peer closes, a timeout passes, an error response is
  /// sent, or the server stops. The caller closes the socket as returned.
  func run() -> CloseMode {
    while true {
      switch serveOne() {
      case .keepOpen where !isStopping(): continue
      case .keepOpen, .close: return .immediate
      case .closeAfterError: return .lingering
      }
    }
  }

  private enum Outcome { case keepOpen, close, closeAfterError }

  private func serveOne() -> Outcome {
    let head: HTTPRequestHead
    let body: [UInt8]
    var limit: EmulatorServer.BodyLimit?
    do {
      guard let (received, deadline) = try readHead() else { return .close }
      head = received
      // The limit is chosen from the head alone (URL and fields), before the body is read.
      if let bodyLimit { limit = bodyLimit(try makeRequest(head, body: [])) }
      body = try readBody(head, deadline: deadline, maxBytes: limit?.maxBytes)
    } catch {
      guard error.answers else {
        notices?("closed a connection without an answer: \(error.reason)")
        return .closeAfterError
      }
      if error.status == 413, let limit {
        write(limit.refusal)
      } else {
        writeError(error)
      }
      return .closeAfterError
    }
    let request: HTTPRequest
    do {
      request = try makeRequest(head, body: body)
    } catch {
      writeError(error)
      return .closeAfterError
    }
    let response = callHandler(with: request)
    let keepAlive = head.wantsKeepAlive && !isStopping()
    let bytes = HTTPResponseSerializer.serialize(
      response, keepAlive: keepAlive, includeBody: head.method != "HEAD")
    guard stream.write(bytes, deadline: .now + limits.writeTimeout) else { return .close }
    return keepAlive ? .keepOpen : .close
  }

  /// Reads up to the blank line that ends the head; `nil` when the peer went away, the
  /// idle timeout passed or the server is stopping before a new request began.
  ///
  /// - Returns: the head and the deadline for the rest of the request (its first byte
  ///   plus ``EmulatorServer/Limits/requestTimeout``).
  private func readHead() throws(HTTPWireError) -> (HTTPRequestHead, ContinuousClock.Instant)? {
    var scanned = 0
    var deadline = ContinuousClock.now + limits.idleTimeout
    var started = false
    while true {
      // Ignore empty lines before a request line (RFC 9112 §2.2).
      while stream.buffer.starts(with: [0x0D, 0x0A]) { stream.buffer.removeFirst(2) }
      if !started && !stream.buffer.isEmpty {
        started = true
        deadline = ContinuousClock.now + limits.requestTimeout
      }
      if let end = Self.headEnd(in: stream.buffer, from: scanned) {
        guard end <= limits.maxHeadBytes else { throw Self.headTooLarge }
        let head = try HTTPRequestHead.parse(stream.buffer[0..<end])
        stream.buffer.removeFirst(end + 4)
        return (head, deadline)
      }
      // Bytes no request can hold end it now, not after the request timeout: a TLS
      // handshake (a client talking https to this port) or a binary byte.
      try HTTPRequestHead.checkStart(stream.buffer)
      guard stream.buffer.count <= limits.maxHeadBytes + 3 else { throw Self.headTooLarge }
      scanned = max(0, stream.buffer.count - 3)
      switch stream.fill(deadline: deadline, watchStop: !started) {
      case .data: continue
      case .closed, .stopping: return nil
      case .timedOut:
        guard started else { return nil }
        throw HTTPWireError(status: 408, reason: "request timed out")
      }
    }
  }

  /// Reads the body framed by `head`, of at most `maxBytes` bytes (`nil`:
  /// ``EmulatorServer/Limits/maxBodyBytes``), else a `413`.
  private func readBody(
    _ head: HTTPRequestHead, deadline: ContinuousClock.Instant, maxBytes: Int?
  ) throws(HTTPWireError) -> [UInt8] {
    let maxBodyBytes = maxBytes ?? limits.maxBodyBytes
    switch head.framing {
    case .none:
      return []
    case .contentLength(let length):
      guard length <= maxBodyBytes else { throw Self.bodyTooLarge }
      sendContinueIfExpected(head, deadline: deadline)
      try need(length, deadline: deadline)
      let body = Array(stream.buffer[0..<length])
      stream.buffer.removeFirst(length)
      return body
    case .chunked:
      sendContinueIfExpected(head, deadline: deadline)
      var decoder = ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes)
      while true {
        if let body = try decoder.decode(&stream.buffer) { return body }
        try more(deadline: deadline)
      }
    }
  }

  private func sendContinueIfExpected(
    _ head: HTTPRequestHead, deadline: ContinuousClock.Instant
  ) {
    guard head.expectsContinue, head.minorVersion >= 1, stream.buffer.isEmpty else { return }
    stream.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), deadline: deadline)
  }

  private func need(_ count: Int, deadline: ContinuousClock.Instant) throws(HTTPWireError) {
    while stream.buffer.count < count { try more(deadline: deadline) }
  }

  private func more(deadline: ContinuousClock.Instant) throws(HTTPWireError) {
    switch stream.fill(deadline: deadline, watchStop: false) {
    case .data: return
    case .timedOut: throw HTTPWireError(status: 408, reason: "request timed out")
    case .closed, .stopping: throw HTTPWireError(status: 400, reason: "connection closed")
    }
  }

  /// Builds the value request: absolute URL `http://<Host><raw target>` with the path and
  /// query exactly as received.
  ///
  /// An absolute-form target (`GET http://host:port/path HTTP/1.1`) is used as the URL, and
  /// its authority replaces the `Host` field (RFC 9112 §3.2.2: the server ignores the
  /// received `Host` and uses the target's host), so the loopback guard and every other
  /// reader of `Host` judge the host the request is for, not the one the field claims.
  private func makeRequest(_ head: HTTPRequestHead, body: [UInt8]) throws(HTTPWireError)
    -> HTTPRequest
  {
    var fields = head.headerFields
    let urlText: String
    if head.target.hasPrefix("/") {
      let host = head.headerFields["Host"] ?? limits.defaultHost
      try Self.checkAuthority(host, malformed: .badRequest("malformed Host header"))
      urlText = "http://" + host + head.target
    } else if head.target.lowercased().hasPrefix("http://") {
      fields["Host"] = try Self.absoluteFormAuthority(head.target)
      urlText = head.target
    } else {
      throw .badRequest("unsupported request target form")
    }
    guard let url = URL(string: urlText, encodingInvalidCharacters: false), url.host != nil else {
      throw .badRequest("request target must be percent-encoded")
    }
    fields.remove("Transfer-Encoding")
    if !body.isEmpty { fields["Content-Length"] = String(body.count) }
    return HTTPRequest(
      method: HTTPMethod(rawValue: head.method), url: url, headerFields: fields, body: Data(body))
  }

  private func writeError(_ error: HTTPWireError) {
    write(
      HTTPResponse(
        status: error.status, headerFields: ["Content-Type": "text/plain; charset=utf-8"],
        body: Data((error.reason + "\n").utf8)))
  }

  /// Writes `response` and announces `Connection: close`.
  private func write(_ response: HTTPResponse) {
    let bytes = HTTPResponseSerializer.serialize(response, keepAlive: false, includeBody: true)
    stream.write(bytes, deadline: .now + limits.writeTimeout)
  }

  /// Runs the async handler from this (non-cooperative) thread and waits for it.
  private func callHandler(with request: HTTPRequest) -> HTTPResponse {
    let handler = self.handler
    let box = ResponseBox()
    Task {
      let response = await handler(request)
      box.response.withLock { $0 = response }
      box.done.signal()
    }
    box.done.wait()
    return box.response.withLock { $0 } ?? HTTPResponse(status: 500)
  }

  private static let headTooLarge = HTTPWireError(
    status: 431, reason: "request line or header fields too large")
  private static let bodyTooLarge = HTTPWireError(status: 413, reason: "request body too large")

  /// The index of the CRLF CRLF that ends the head, searching from `start`.
  private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= 4 else { return nil }
    var index = start
    while index + 3 < bytes.count {
      if bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D
        && bytes[index + 3] == 0x0A
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The `host[:port]` of an absolute-form `http://` target.
  ///
  /// - Throws: a `400` when it is empty, carries user info (`user@host`, an error for an
  ///   `http` URI, RFC 9110 §4.2.4) or is not an authority ``checkAuthority(_:malformed:)``
  ///   accepts.
  static func absoluteFormAuthority(_ target: String) throws(HTTPWireError) -> String {
    let rest = target.utf8.dropFirst("http://".count)
    let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
    let text = String(decoding: rest[..<(end ?? rest.endIndex)], as: UTF8.self)
    try checkAuthority(text, malformed: .badRequest("malformed authority in the request target"))
    return text
  }

  /// Checks an authority (a `Host` field, an absolute-form target's `host[:port]`): a
  /// host of host characters (or an IPv6 literal in brackets) and an optional port read
  /// by the package's one port rule (``BackendHTTP/URLLoaderSupport/portNumber(_:)``:
  /// 1…65535 without leading zeros), so `localhost:99999`, `localhost:065` and
  /// `localhost:` are refused as every setting refuses them.
  ///
  /// - Throws: `malformed` when it is not one.
  static func checkAuthority(_ text: String, malformed: HTTPWireError) throws(HTTPWireError) {
    guard !text.isEmpty, text.utf8.allSatisfy(isHostCharacter) else { throw malformed }
    var host = Substring(text)
    var port: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { throw malformed }
      host = text[...close]
      let after = text[text.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else { throw malformed }
        port = after.dropFirst()
      }
    } else if let colon = text.firstIndex(of: ":") {
      host = text[..<colon]
      port = text[text.index(after: colon)...]
    }
    guard host.count > (host.hasPrefix("[") ? 2 : 0) else { throw malformed }
    if let port, URLLoaderSupport.portNumber(port) == nil { throw malformed }
  }

  private static func isHostCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return ".-:[]_".utf8.contains(byte)
    }
  }
}

/// Hands a response from the handler's task back to the connection thread.
private final class ResponseBox: Sendable {
  let response = LockedValue<HTTPResponse?>(nil)
  let done = DispatchSemaphore(value: 0)
}
