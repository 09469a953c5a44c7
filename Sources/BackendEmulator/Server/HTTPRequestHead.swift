import BackendHTTP

/// A rejected request, with the status the server answers before closing the connection.
struct HTTPWireError: Error, Sendable, Hashable {
  /// The status code to answer with: 400, 413, 431, 501, ...
  var status: Int
  /// A short, secret-free reason for the response body.
  var reason: String
  /// `false` when the connection is closed without an answer: the client does not speak
  /// HTTP (``tlsHandshake``) and could not read one.
  var answers = true

  static func badRequest(_ reason: String) -> HTTPWireError {
    HTTPWireError(status: 400, reason: reason)
  }
}

/// How the request body is framed (RFC 9112 §6).
enum HTTPBodyFraming: Sendable, Hashable {
  /// No body.
  case none
  /// Exactly this many bytes follow the head.
  case contentLength(Int)
  /// `Transfer-Encoding: chunked`.
  case chunked
}

/// The parsed request line and header fields of one HTTP/1.x request (RFC 9112 §3, §5).
struct HTTPRequestHead: Sendable, Hashable {
  var method: String
  /// The request target exactly as received (origin form `/p?q`, or absolute form).
  var target: String
  /// `1` for HTTP/1.1, `0` for HTTP/1.0.
  var minorVersion: Int
  var headerFields: HTTPFields
  var framing: HTTPBodyFraming

  /// `true` when the client asked to keep the connection open after this exchange.
  var wantsKeepAlive: Bool {
    let tokens = headerFields.values(for: "Connection")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingSpaces().lowercased() }
    if tokens.contains("close") { return false }
    return minorVersion >= 1 || tokens.contains("keep-alive")
  }

  /// `true` when the client sent `Expect: 100-continue`.
  var expectsContinue: Bool {
    headerFields["Expect"]?.trimmingSpaces().lowercased() == "100-continue"
  }

  /// The methods the emulator serves, exactly as spelled on the wire (upper case).
  static let implementedMethods: Set<String> = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
  ]

  /// Parses the head: the bytes before the blank line, without the final CRLF CRLF.
  ///
  /// - Throws: ``HTTPWireError`` with 400 for malformed syntax, 501 for a method not in
  ///   ``implementedMethods`` (`get` included) or an unsupported transfer coding, 505 for a
  ///   version other than HTTP/1.0 or HTTP/1.1.
  static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPWireError) -> HTTPRequestHead {
    var lines = try split(bytes)
    guard !lines.isEmpty else { throw .badRequest("empty request") }
    let requestLine = lines.removeFirst()
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw .badRequest("malformed request line") }
    guard let method = token(parts[0]) else { throw .badRequest("malformed method") }
    // Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET`, although the
    // request value's ``BackendHTTP/HTTPMethod`` upper-cases it. A method this server does
    // not implement, in any spelling, is a 501 (RFC 9110 §9.1, §15.6.2).
    guard implementedMethods.contains(method) else {
      throw HTTPWireError(status: 501, reason: "method not implemented")
    }
    guard let target = visibleASCII(parts[1]), !target.isEmpty else {
      throw .badRequest("malformed request target")
    }
    let version = String(decoding: parts[2], as: UTF8.self)
    let minor: Int
    switch version {
    case "HTTP/1.1": minor = 1
    case "HTTP/1.0": minor = 0
    default:
      if version.hasPrefix("HTTP/") && version.count == 8 {
        throw HTTPWireError(status: 505, reason: "HTTP version not supported")
      }
      throw .badRequest("malformed HTTP version")
    }
    var fields = HTTPFields()
    for line in lines {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
        throw .badRequest("header field without a colon")
      }
      // No whitespace between name and colon, no obsolete line folding (RFC 9112 §5).
      guard let name = token(line[line.startIndex..<colon]) else {
        throw .badRequest("malformed header field name")
      }
      let rawValue = line[(colon + 1)...]
      guard rawValue.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
        throw .badRequest("control character in header field \(name)")
      }
      fields.append(name: name, value: String(decoding: rawValue, as: UTF8.self).trimmingSpaces())
    }
    // RFC 9112 §3.2: more than one Host is a 400 whatever the version (an HTTP/1.0
    // request may omit it, never repeat it): the loopback guard and the request URL read
    // this field, so it must have one reading.
    let hosts = fields.values(for: "Host").count
    if hosts > 1 { throw .badRequest("more than one Host header field") }
    if minor >= 1 && hosts != 1 {
      throw .badRequest("HTTP/1.1 needs exactly one Host header field")
    }
    let framing = try framing(of: fields)
    return HTTPRequestHead(
      method: method, target: target, minorVersion: minor, headerFields: fields,
      framing: framing)
  }

  private static func framing(of fields: HTTPFields) throws(HTTPWireError) -> HTTPBodyFraming {
    let codings = fields.values(for: "Transfer-Encoding")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingSpaces().lowercased() }
      .filter { !$0.isEmpty }
    let lengths = fields.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingSpaces() }
    if !codings.isEmpty {
      // Both headers at once is a request-smuggling vector: refuse (RFC 9112 §6.3).
      guard lengths.isEmpty else {
        throw .badRequest("both Transfer-Encoding and Content-Length")
      }
      guard codings == ["chunked"] else {
        throw HTTPWireError(status: 501, reason: "unsupported transfer coding")
      }
      return .chunked
    }
    guard let first = lengths.first else { return .none }
    guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
      first.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(first)
    else { throw .badRequest("malformed Content-Length") }
    return length == 0 ? .none : .contentLength(length)
  }

  /// Splits on CRLF; a bare LF is rejected as malformed (400), so a field that a
  /// CRLF-only reader sees as one is never two here.
  private static func split(_ bytes: ArraySlice<UInt8>) throws(HTTPWireError)
    -> [ArraySlice<UInt8>]
  {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 0x0A {
        guard index > start && bytes[index - 1] == 0x0D else {
          throw .badRequest("bare LF in the request head")
        }
        let end = index - 1
        lines.append(bytes[start..<end])
        start = index + 1
      }
      index += 1
    }
    lines.append(bytes[start..<bytes.endIndex])
    return lines
  }

  /// An RFC 9110 token, or `nil`.
  private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
    guard !bytes.isEmpty, bytes.allSatisfy(HTTPToken.isTokenCharacter) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Visible ASCII (0x21...0x7E), or `nil`.
  private static func visibleASCII(_ bytes: ArraySlice<UInt8>) -> String? {
    guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

}

extension StringProtocol {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var scalars = Substring(self)[...]
    while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
