/// Incremental decoder for a `Transfer-Encoding: chunked` request body (RFC 9112 §7.1).
///
/// Feed it the connection's buffer as bytes arrive; it consumes what it can. Chunk
/// extensions are ignored, trailer fields are read and dropped.
struct ChunkedBodyDecoder {
  private enum Phase {
    case size
    case data(remaining: Int)
    case dataEnd
    case trailers
  }

  /// The body size limit; a larger body fails with 413.
  let maxBodyBytes: Int
  /// The longest chunk-size or trailer line accepted.
  let maxLineBytes = 4096
  /// The most trailer bytes accepted.
  let maxTrailerBytes = 16_384

  private var phase = Phase.size
  private var body: [UInt8] = []
  private var trailerBytes = 0

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  /// Consumes bytes from the front of `buffer`.
  ///
  /// - Returns: the whole body once the last chunk and the trailers are read, else `nil`
  ///   (more bytes needed). Bytes after the body stay in `buffer`.
  /// - Throws: ``HTTPWireError`` 400 (malformed framing), 413 (body too large) or
  ///   431 (trailers too large).
  mutating func decode(_ buffer: inout [UInt8]) throws(HTTPWireError) -> [UInt8]? {
    while true {
      switch phase {
      case .size:
        guard let line = try takeLine(&buffer) else { return nil }
        let sizeText = line.prefix { $0 != UInt8(ascii: ";") }.trimmingSpacesAndTabs()
        guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(hex: sizeText) else {
          throw .badRequest("malformed chunk size")
        }
        guard body.count + size <= maxBodyBytes else {
          throw HTTPWireError(status: 413, reason: "request body too large")
        }
        phase = size == 0 ? .trailers : .data(remaining: size)
      case .data(let remaining):
        guard !buffer.isEmpty else { return nil }
        let count = min(remaining, buffer.count)
        body.append(contentsOf: buffer[0..<count])
        buffer.removeFirst(count)
        phase = count == remaining ? .dataEnd : .data(remaining: remaining - count)
      case .dataEnd:
        guard buffer.count >= 2 else { return nil }
        guard buffer[0] == 0x0D && buffer[1] == 0x0A else {
          throw .badRequest("chunk data not followed by CRLF")
        }
        buffer.removeFirst(2)
        phase = .size
      case .trailers:
        guard let line = try takeLine(&buffer) else { return nil }
        if line.isEmpty { return body }
        trailerBytes += line.count + 2
        guard trailerBytes <= maxTrailerBytes else {
          throw HTTPWireError(status: 431, reason: "trailer fields too large")
        }
      }
    }
  }

  /// Removes and returns one CRLF-terminated line (without the CRLF), or `nil` when the
  /// line is not complete yet.
  private func takeLine(_ buffer: inout [UInt8]) throws(HTTPWireError) -> [UInt8]? {
    var index = 0
    while index + 1 < buffer.count {
      if buffer[index] == 0x0D && buffer[index + 1] == 0x0A {
        let line = Array(buffer[0..<index])
        buffer.removeFirst(index + 2)
        return line
      }
      if buffer[index] == 0x0A { throw .badRequest("bare LF in chunked framing") }
      index += 1
    }
    guard buffer.count <= maxLineBytes else { throw .badRequest("chunk line too long") }
    return nil
  }
}

extension Collection<UInt8> {
  /// The bytes without leading and trailing spaces and tabs.
  fileprivate func trimmingSpacesAndTabs() -> [UInt8] {
    let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    return Array(self.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
  }
}

extension Int {
  /// Parses ASCII hex digits (at least one, nothing else); `nil` otherwise.
  fileprivate init?(hex bytes: [UInt8]) {
    var value = 0
    for byte in bytes {
      let digit: Int
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
      default: return nil
      }
      value = value * 16 + digit
    }
    self = value
  }
}
