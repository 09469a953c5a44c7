import BackendHTTP

extension HTTPRequestHead {
  /// The first byte of a TLS handshake record (content type 22, RFC 8446 §5.1): what a
  /// client talking `https` to this plain-HTTP port sends first.
  static let tlsHandshakeRecordType: UInt8 = 0x16

  /// Checks the start of a request whose head has not fully arrived (`bytes` begins after
  /// any empty lines), so that bytes no HTTP/1.x request can hold end the connection now
  /// instead of after ``EmulatorServer/Limits/requestTimeout``: a client that is not
  /// speaking HTTP would otherwise wait for its own timeout.
  ///
  /// Only the request line is checked, byte by byte as it arrives: the method must be
  /// token characters, the target and the version visible ASCII, at most two spaces, and a
  /// line break CRLF. Whatever else could still become valid is left to ``parse(_:)``
  /// once the head is whole (the reasons given are the same).
  ///
  /// - Throws: ``HTTPWireError/tlsHandshake`` when the first byte opens a TLS handshake
  ///   (answered with nothing: a TLS client cannot read a plain-text 400); a `400` for a
  ///   byte that cannot be part of a request line (a NUL, another control byte, a byte
  ///   above 0x7E, a space first, a bare LF).
  static func checkStart(_ bytes: [UInt8]) throws(HTTPWireError) {
    guard let first = bytes.first else { return }
    if first == tlsHandshakeRecordType { throw .tlsHandshake }
    var part = 0  // 0: method, 1: target, 2: version
    var partLength = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x0A:
        throw .badRequest("bare LF in the request head")
      case 0x0D:
        // The line's end: the parser checks the line once the head is whole. A CR not
        // followed by LF is a byte inside the line, which no part may hold.
        guard index + 1 < bytes.count else { return }
        guard bytes[index + 1] == 0x0A else { throw problem(inPart: part) }
        return
      case 0x20:
        guard part > 0 || partLength > 0 else { throw .badRequest("malformed method") }
        part += 1
        partLength = 0
        guard part <= 2 else { throw .badRequest("malformed request line") }
      default:
        let allowed =
          part == 0 ? HTTPToken.isTokenCharacter(byte) : (byte > 0x20 && byte < 0x7F)
        guard allowed else { throw problem(inPart: part) }
        partLength += 1
      }
      index += 1
    }
  }

  /// The parser's reason for a bad byte in part `part` of the request line.
  private static func problem(inPart part: Int) -> HTTPWireError {
    switch part {
    case 0: .badRequest("malformed method")
    case 1: .badRequest("malformed request target")
    default: .badRequest("malformed HTTP version")
    }
  }
}

extension HTTPWireError {
  /// A TLS handshake on the plain-HTTP port: the connection is closed without an answer.
  static let tlsHandshake = HTTPWireError(
    status: 400, reason: "a TLS handshake on the plain-HTTP port (use http://, not https://)",
    answers: false)
}
