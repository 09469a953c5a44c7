import Foundation
import Synchronization
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal HTTP/1.1 listener on 127.0.0.1 with an ephemeral port, for tests only.
///
/// Requests to a path starting with `/hang` are accepted and never answered (until
/// `stop()`); `/status/N` gets status N; `/redirect/N/PORT` gets status N with
/// `Location: http://127.0.0.1:PORT/landed`; any other request gets status 201 and a JSON echo
/// `{"method","path","query","headers":[[name,value]...],"body"}` with `Connection: close`
/// and a `Set-Cookie` field (to check that the transport never sends cookies back).
/// `/stream/N` answers 200 with N bytes of `x` and `Content-Length: N`; `/stream/N/chunked`
/// sends the same bytes chunked, with no length declared (both stop early when the client
/// goes away; `bytesStreamed` counts what was written; a `HEAD` gets the head only).
/// `/keep...` gets the echo without `Connection: close` and the connection stays open for
/// the next request (to see connections reused). The echo also has `bodyLength`, and its
/// `X-Method` field names the request's method (seen even by a `HEAD`).
///
/// A server made with `answer:` reads each request and writes those bytes as they are
/// (any framing, any header bytes), then closes the connection; an empty answer means
/// "close without answering".
final class LoopbackServer: Sendable {
  let port: Int
  private let listener: Int32
  private let answer: [UInt8]?
  private let held = LockedValue<[Int32]>([])
  private let accepted = Atomic<Int>(0)

  enum StartError: Error { case socket(String) }

  /// A server on 127.0.0.1, or on ::1 when `ipv6` is true (`http://[::1]:port/`).
  init(answer: [UInt8]? = nil, ipv6: Bool = false) throws {
    self.answer = answer
    (listener, port) = try ipv6 ? Self.listenIPv6() : Self.listenIPv4()
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  private static func streamSocket(_ family: Int32) throws -> Int32 {
    #if canImport(Glibc)
      let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(family, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw StartError.socket("socket") }
    return fd
  }

  /// Binds `address` on `fd`, listens and returns the bound address.
  private static func bindAndListen<Address>(_ fd: Int32, _ address: Address) throws -> Address {
    var address = address
    let size = socklen_t(MemoryLayout<Address>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw StartError.socket("bind/listen")
    }
    var length = size
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return address
  }

  private static func listenIPv4() throws -> (Int32, Int) {
    let fd = try streamSocket(AF_INET)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(0).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = try bindAndListen(fd, address)
    return (fd, Int(UInt16(bigEndian: bound.sin_port)))
  }

  private static func listenIPv6() throws -> (Int32, Int) {
    let fd = try streamSocket(AF_INET6)
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = in_port_t(0).bigEndian
    address.sin6_addr = in6addr_loopback
    let bound = try bindAndListen(fd, address)
    return (fd, Int(UInt16(bigEndian: bound.sin6_port)))
  }

  private let streamed = Atomic<Int>(0)

  /// How many body bytes the `/stream/` answers have written so far.
  var bytesStreamed: Int { streamed.load(ordering: .sequentiallyConsistent) }

  /// How many connections were accepted so far.
  var acceptedCount: Int { accepted.load(ordering: .sequentiallyConsistent) }

  /// Stops listening and closes every held connection. The listener is only shut down
  /// here (which ends the accept loop's `accept`) and closed by the accept loop itself:
  /// closed here, its descriptor number could be reused by another test's listener before
  /// the loop calls `accept` again, and this server would answer that one's requests.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    let fds = held.withLock { fds in
      defer { fds = [] }
      return fds
    }
    for fd in fds {
      shutdown(fd, Int32(SHUT_RDWR))
      close(fd)
    }
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        close(listener)
        return
      }
      accepted.add(1, ordering: .sequentiallyConsistent)
      Thread { [self] in serve(connection) }.start()
    }
  }

  private func serve(_ connection: Int32) {
    var buffer = [UInt8]()
    while let request = readRequest(connection, &buffer) {
      if let answer {
        if !answer.isEmpty { _ = writeAll(connection, answer) }
        break
      }
      guard answerRequest(connection, request) else { return }
    }
    close(connection)
  }

  /// One request's head (without the blank line) and body, taken from the front of
  /// `buffer` (reading more as needed); nil when the client closes first.
  private func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> (
    head: String, body: [UInt8]
  )? {
    var chunk = [UInt8](repeating: 0, count: 4096)
    var headerEnd: Int?
    var contentLength = 0
    while true {
      if headerEnd == nil, let range = Data(buffer).range(of: Data("\r\n\r\n".utf8)) {
        headerEnd = range.upperBound
        let head = String(decoding: buffer[0..<range.lowerBound], as: UTF8.self)
        for line in head.split(separator: "\r\n").dropFirst() {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2, parts[0].lowercased() == "content-length" {
            contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
          }
        }
      }
      if let end = headerEnd, buffer.count >= end + contentLength {
        let head = String(decoding: buffer[0..<(end - 4)], as: UTF8.self)
        let body = Array(buffer[end..<(end + contentLength)])
        buffer.removeFirst(end + contentLength)
        return (head, body)
      }
      let count = read(connection, &chunk, chunk.count)
      if count <= 0 { return nil }
      buffer.append(contentsOf: chunk[0..<count])
    }
  }

  /// Answers one request; true when the connection stays open for the next one (false:
  /// closed, or held by `/hang`).
  private func answerRequest(_ connection: Int32, _ request: (head: String, body: [UInt8]))
    -> Bool
  {
    let lines = request.head.split(separator: "\r\n").map(String.init)
    let requestLine = lines.first?.split(separator: " ").map(String.init) ?? []
    let target = requestLine.count > 1 ? requestLine[1] : "/"
    if target.hasPrefix("/hang") {
      held.withLock { $0.append(connection) }
      return false
    }
    if target.hasPrefix("/stream/") {
      streamBody(connection, target: target, headOnly: requestLine.first == "HEAD")
      return false
    }
    let keepAlive = target.hasPrefix("/keep")
    let pathAndQuery = target.split(separator: "?", maxSplits: 1).map(String.init)
    let headers = lines.dropFirst().map { line -> [String] in
      let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
      return [parts[0], parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""]
    }
    let echo: [String: Any] = [
      "method": requestLine.first ?? "",
      "path": pathAndQuery[0],
      "query": pathAndQuery.count > 1 ? pathAndQuery[1] : "",
      "headers": headers,
      "body": String(decoding: request.body, as: UTF8.self),
      "bodyLength": request.body.count,
    ]
    let body = (try? JSONSerialization.data(withJSONObject: echo, options: [.sortedKeys])) ?? Data()
    var status =
      pathAndQuery[0].hasPrefix("/status/") ? String(pathAndQuery[0].dropFirst(8)) : "201"
    var location = ""
    if pathAndQuery[0].hasPrefix("/redirect/") {
      let parts = pathAndQuery[0].split(separator: "/").map(String.init)
      if parts.count >= 3 {
        status = parts[1]
        location = "Location: http://127.0.0.1:\(parts[2])/landed\r\n"
      }
    }
    let response =
      "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nX-Echo: yes\r\n"
      + "X-Method: \(requestLine.first ?? "")\r\n" + location
      + "Set-Cookie: sid=abc123; Path=/\r\n"
      + "Content-Length: \(body.count)\r\n" + (keepAlive ? "" : "Connection: close\r\n") + "\r\n"
    let written = writeAll(connection, Array(response.utf8) + Array(body))
    if keepAlive && written { return true }
    close(connection)
    return false
  }

  /// Writes `bytes` fully; false when the client has gone away.
  private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let start = offset
      let written = bytes.withUnsafeBytes {
        send(connection, $0.baseAddress! + start, bytes.count - start, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  /// The `/stream/N[/chunked]` answer, in 64 KiB pieces.
  private func streamBody(_ connection: Int32, target: String, headOnly: Bool) {
    defer { close(connection) }
    let parts = target.split(separator: "/").map(String.init)
    let total = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    let chunked = parts.count > 2 && parts[2] == "chunked"
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n"
      + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: \(total)\r\n\r\n")
    guard writeAll(connection, Array(head.utf8)), !headOnly else { return }
    var left = total
    while left > 0 {
      let piece = min(left, 64 * 1024)
      let payload = [UInt8](repeating: UInt8(ascii: "x"), count: piece)
      let framed =
        chunked
        ? Array("\(String(piece, radix: 16))\r\n".utf8) + payload + Array("\r\n".utf8) : payload
      guard writeAll(connection, framed) else { return }
      streamed.add(piece, ordering: .sequentiallyConsistent)
      left -= piece
    }
    if chunked { _ = writeAll(connection, Array("0\r\n\r\n".utf8)) }
  }
}
