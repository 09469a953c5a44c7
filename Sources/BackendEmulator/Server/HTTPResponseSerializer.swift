import BackendHTTP
import Foundation

/// Writes an ``HTTPResponse`` as HTTP/1.1 bytes (RFC 9112 §4, §6).
enum HTTPResponseSerializer {
  /// The status line, the handler's fields (minus framing and connection fields, which
  /// the server owns), `Content-Length`, `Connection`, the blank line and the body.
  ///
  /// - Parameters:
  ///   - keepAlive: `false` adds `Connection: close`.
  ///   - includeBody: `false` for `HEAD` (the length is still announced).
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, includeBody: Bool)
    -> [UInt8]
  {
    let status = (100...999).contains(response.status) ? response.status : 500
    var head = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
    let owned: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]
    for field in response.headerFields where !owned.contains(field.name.lowercased()) {
      // Never let a value break the framing.
      let value = field.value.filter { $0 != "\r" && $0 != "\n" }
      head += "\(field.name): \(value)\r\n"
    }
    let hasBody = !(100..<200).contains(status) && status != 204 && status != 304
    if hasBody { head += "Content-Length: \(response.body.count)\r\n" }
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    head += "\r\n"
    var bytes = Array(head.utf8)
    if includeBody && hasBody { bytes.append(contentsOf: response.body) }
    return bytes
  }

  /// The standard reason phrase for the statuses the emulator uses.
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }
}
