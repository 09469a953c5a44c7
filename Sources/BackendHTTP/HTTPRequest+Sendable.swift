import Foundation

extension HTTPRequest {
  /// Checks that the request can go on the wire as it says, for every network transport
  /// (one rule, before any connection): an `http` or `https` URL without a user name or
  /// password (which would go out as `Authorization: Basic`); a method and header
  /// field names that are HTTP tokens (RFC 9110 §5.6.2; anything else would be written
  /// into the request line or a field line and could smuggle a second request); no line
  /// break or NUL in a field value; no `Transfer-Encoding` field (the body is whole and
  /// goes with its own length); a `Content-Length` field only when it is the body's length
  /// (another would cut the body short and leave the rest to be read as the next request
  /// on a kept-alive connection).
  /// - Throws: ``HTTPTransportError/invalidRequest(reason:)``, naming the field, never its
  ///   value or the URL.
  public func checkSendable() throws(HTTPTransportError) {
    let scheme = url.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      throw .invalidRequest(reason: "the URL scheme must be http or https")
    }
    // A URL's user name and password would go out as `Authorization: Basic` (libcurl,
    // and URLSession on Linux, which is libcurl too): a field the request never named,
    // and the URL's credentials in clear text.
    guard url.user == nil && url.password == nil else {
      throw .invalidRequest(
        reason: "the URL carries a user name or password; send credentials as a header field")
    }
    guard HTTPToken.isToken(method.rawValue) else {
      throw .invalidRequest(reason: "the method is not an HTTP token")
    }
    for field in headerFields {
      guard HTTPToken.isToken(field.name) else {
        throw .invalidRequest(reason: "a header field name is not a token")
      }
      guard !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
        throw .invalidRequest(reason: "the header field \(field.name) contains a line break")
      }
      switch field.name.lowercased() {
      case "transfer-encoding":
        throw .invalidRequest(
          reason: "the Transfer-Encoding field is the transport's, not the request's")
      case "content-length":
        guard field.value.trimmingCharacters(in: .whitespaces) == "\(body.count)" else {
          throw .invalidRequest(reason: "the Content-Length field does not match the body's length")
        }
      default: break
      }
    }
  }
}

/// RFC 9110 §5.6.2 tokens, what a method and a field name may be: one or more letters,
/// digits or ``!#$%&'*+-.^_`|~``. One rule for the transports' request check and the
/// emulator's request parser.
package enum HTTPToken {
  /// Whether `byte` may appear in a token.
  package static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// Whether `text` is a token (not empty, every byte a token character).
  package static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
  }
}
