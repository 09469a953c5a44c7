import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal blocking HTTP/1.1 client over one keep-alive TCP connection to
/// `127.0.0.1:port`, for load generation from plain threads (no URLSession connection
/// limits, no event loop). It sends prepared request bytes and reads one response with a
/// `Content-Length` body; anything else is an error. Not `Sendable`: one thread owns it.
final class LoopbackHTTPClient {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var scratch = [UInt8](repeating: 0, count: 16_384)

  /// Connects to `127.0.0.1:port` with `TCP_NODELAY`.
  /// - Throws: ``BenchFailure`` naming the failing call.
  init(port: Int) throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw BenchFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      _ = close(fd)
      throw BenchFailure("connect 127.0.0.1:\(port): errno \(code)")
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    self.fd = fd
  }

  deinit { _ = close(fd) }

  /// Sends `request` (complete HTTP/1.1 bytes) and returns the response status once the
  /// whole response has been read.
  /// - Throws: ``BenchFailure`` on a socket error, a closed connection or an unreadable
  ///   response.
  func exchange(_ request: [UInt8]) throws -> Int {
    var sent = 0
    while sent < request.count {
      let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { throw BenchFailure("send: errno \(errno)") }
      sent += count
    }
    let headEnd = try readUntilHeadEnd()
    let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
      let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else { throw BenchFailure("unreadable status line") }
    var length = 0
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      if line[..<colon].lowercased() == "content-length" {
        length = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)) ?? 0
      }
    }
    let total = headEnd + 4 + length
    while buffer.count < total { try fill() }
    buffer.removeFirst(total)
    return status
  }

  /// The index of `\r\n\r\n` in the buffer, reading more as needed.
  private func readUntilHeadEnd() throws -> Int {
    var searchFrom = 0
    while true {
      if buffer.count >= 4 {
        for index in searchFrom...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
          && buffer[index + 3] == 10
        {
          return index
        }
        searchFrom = buffer.count - 3
      }
      try fill()
    }
  }

  private func fill() throws {
    let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else {
      throw BenchFailure(count == 0 ? "connection closed by the server" : "recv: errno \(errno)")
    }
    buffer.append(contentsOf: scratch[0..<count])
  }

  /// The bytes of a `POST` with a JSON body to `127.0.0.1:port` + `target`.
  static func postJSON(port: Int, target: String, body: Data) -> [UInt8] {
    let head =
      "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
      + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + Array(body)
  }
}
