import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Errors from the raw test client.
enum RawClientError: Error, CustomStringConvertible {
  case connect(Int32)
  case send(Int32)
  case closedEarly(received: Int)
  case timedOut
  case malformed(String)

  var description: String {
    switch self {
    case .connect(let code): "connect failed: errno \(code)"
    case .send(let code): "send failed: errno \(code)"
    case .closedEarly(let received): "connection closed after \(received) bytes"
    case .timedOut: "timed out waiting for the server"
    case .malformed(let text): "malformed response: \(text)"
    }
  }
}

/// A parsed HTTP response as the raw client saw it.
struct RawResponse: Sendable {
  var status: Int
  /// Header fields, names lower-cased (last one wins).
  var headers: [String: String]
  var body: Data

  var bodyText: String { String(decoding: body, as: UTF8.self) }

  /// The body as a JSON object, or an empty dictionary.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
  }
}

/// A blocking loopback TCP client for exercising the server byte by byte. Used only from
/// inside ``blocking(_:)`` closures, one thread at a time (hence `@unchecked`); every
/// read has a bound so a broken server fails the test instead of hanging it.
///
/// The bound is a hang guard, not a latency check: the server answers from a task on the
/// cooperative pool, which the whole test run shares, and on a loaded 2-core machine
/// running every suite in parallel an answer can take well over 10 s (the old bound; it
/// failed 7-9 server tests at once in a full run). 60 s stays below the suites' time limit.
final class RawConnection: @unchecked Sendable {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(port: Int, receiveTimeoutSeconds: Int = 60) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawClientError.connect(errno) }
    var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    // On a throw after `fd` is set, deinit runs and closes it (exactly once).
    guard result == 0 else { throw RawClientError.connect(errno) }
  }

  deinit { _ = close(fd) }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        systemSend(fd, $0.baseAddress! + offset, $0.count - offset)
      }
      guard sent > 0 else { throw RawClientError.send(errno) }
      offset += sent
    }
  }

  /// Reads one response (framed by `Content-Length`, or by close).
  func readResponse() throws -> RawResponse {
    let headEnd = try readUntilHeadEnd()
    let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
    buffer.removeFirst(headEnd + 4)
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw RawClientError.malformed(head)
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    if status == 100 { return try readResponse() }
    let body: [UInt8]
    if let length = headers["content-length"].flatMap({ Int($0) }) {
      while buffer.count < length { try fill() }
      body = Array(buffer[0..<length])
      buffer.removeFirst(length)
    } else {
      while (try? fill()) != nil {}
      body = buffer
      buffer = []
    }
    return RawResponse(status: status, headers: headers, body: Data(body))
  }

  /// `true` when the server closed the connection (reads EOF within the timeout).
  func isClosedByServer() -> Bool {
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, 0) == 0
  }

  private func readUntilHeadEnd() throws -> Int {
    while true {
      if buffer.count >= 4 {
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
          && buffer[index + 3] == 10
        {
          return index
        }
      }
      try fill()
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count < 0 { throw errno == EAGAIN ? RawClientError.timedOut : .closedEarly(received: 0) }
    if count == 0 { throw RawClientError.closedEarly(received: buffer.count) }
    buffer.append(contentsOf: chunk[0..<count])
  }
}

/// Runs blocking socket work on its own thread, off the Swift concurrency pool (and off
/// Dispatch's small worker pool), so neither the server's handler tasks nor other tests
/// wait for the test's blocking reads.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.start()
  }
}

/// A one-shot request on a fresh connection.
func rawExchange(port: Int, _ request: String) async throws -> RawResponse {
  try await blocking {
    let connection = try RawConnection(port: port)
    try connection.send(request)
    return try connection.readResponse()
  }
}

#if canImport(Glibc)
  private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
  }
#else
  private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    Darwin.send(fd, pointer, count, 0)
  }
#endif
