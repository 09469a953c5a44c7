import BackendHTTP
import Foundation
import UserBackendKit

/// Why ``NCMBSignature/validate(request:clientKey:acceptedHosts:applicationKey:)`` rejected
/// a request. Descriptions name headers, never their values or any key.
public enum NCMBSignatureFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// A required header (`X-NCMB-Application-Key`, `X-NCMB-Timestamp`,
  /// `X-NCMB-Signature`) is absent or empty; the associated value names it.
  case missingHeader(String)
  /// `X-NCMB-Application-Key` is not the expected application key.
  case unknownApplicationKey
  /// No accepted host and path form reproduces `X-NCMB-Signature`.
  case signatureMismatch
  /// The signed path or query has a percent-escape that is not `%` and two upper-case
  /// hex digits (`%7b`, `%zz`, a lone `%`): the service refuses such a signature even
  /// when the client signed exactly those bytes.
  case nonCanonicalEncoding

  /// A one-line explanation without secrets.
  public var description: String {
    switch self {
    case .missingHeader(let name): "the request has no \(name) header"
    case .unknownApplicationKey: "the application key is not the expected one"
    case .signatureMismatch: "the request signature does not match"
    case .nonCanonicalEncoding:
      "the signed path or query has a percent-escape that is not upper-case hex (%7B, not %7b)"
    }
  }
}

extension NCMBSignature {
  /// Checks a received request's `X-NCMB-Signature`, for servers (the emulator) and for
  /// cassette replay. Throwing variant of
  /// ``verify(request:clientKey:acceptedHosts:applicationKey:)`` that says why.
  ///
  /// The signature is recomputed over the **raw** percent-encoded path and (for `GET`)
  /// raw query as received and the raw `X-NCMB-Application-Key` / `X-NCMB-Timestamp`
  /// header values, never a re-canonicalised form (`docs/wire/ncmb.md` §2,
  /// "Percent-encoding", and §6, item 1). The path is accepted as received and
  /// with its trailing slash added or removed. The timestamp's age is not checked (the
  /// service's window is undocumented). Percent-escapes in the signed path and query must
  /// be canonical (`%` and two upper-case hex digits), as the service requires: a request
  /// signed over `%7b` is refused even though its signature covers what was sent.
  ///
  /// - Parameters:
  ///   - request: the request as received (absolute URL; headers).
  ///   - clientKey: the client key the signature must use.
  ///   - acceptedHosts: the FQDNs a client may have signed; `nil` accepts the request
  ///     URL's host in lower case (as the service signs its own name) and ``defaultFQDN``.
  ///   - applicationKey: when given, `X-NCMB-Application-Key` must equal it.
  /// - Throws: ``NCMBSignatureFailure``.
  public static func validate(
    request: HTTPRequest, clientKey: String, acceptedHosts: [String]? = nil,
    applicationKey: String? = nil
  ) throws(NCMBSignatureFailure) {
    func header(_ name: String) throws(NCMBSignatureFailure) -> String {
      guard let value = request.headerFields[name], !value.isEmpty else {
        throw .missingHeader(name)
      }
      return value
    }
    let sentKey = try header(Header.applicationKey)
    let timestamp = try header(Header.timestamp)
    let sentSignature = try header(Header.signature)
    if let applicationKey,
      !Crypto.constantTimeEquals(Data(sentKey.utf8), Data(applicationKey.utf8))
    {
      throw .unknownApplicationKey
    }
    let hosts = acceptedHosts ?? [request.url.host?.lowercased(), defaultFQDN].compactMap { $0 }
    let query = request.method == .get ? request.rawQuery : nil
    guard hasOnlyCanonicalEscapes(request.rawPath), hasOnlyCanonicalEscapes(query ?? "") else {
      throw .nonCanonicalEncoding
    }
    for host in hosts {
      for path in pathForms(request.rawPath) {
        let expected = signature(
          stringToSign: stringToSign(
            method: request.method, fqdn: host, path: path, query: query,
            applicationKey: sentKey, timestamp: timestamp),
          clientKey: clientKey)
        if Crypto.constantTimeEquals(Data(expected.utf8), Data(sentSignature.utf8)) { return }
      }
    }
    throw .signatureMismatch
  }

  /// `true` when ``validate(request:clientKey:acceptedHosts:applicationKey:)`` accepts
  /// `request`; same parameters.
  public static func verify(
    request: HTTPRequest, clientKey: String, acceptedHosts: [String]? = nil,
    applicationKey: String? = nil
  ) -> Bool {
    do {
      try validate(
        request: request, clientKey: clientKey, acceptedHosts: acceptedHosts,
        applicationKey: applicationKey)
      return true
    } catch {
      return false
    }
  }

  /// The `X-NCMB-Response-Signature` a server sends for a response to `request`:
  /// Base64(HMAC-SHA256(client key, string to sign + `"\n"` + body)), where the body part
  /// is left out (with its newline) when the body is empty, is the body text when it is
  /// UTF-8, and is its lower-case hex otherwise (`docs/wire/ncmb.md` §2,
  /// "Response signature").
  ///
  /// - Parameters: as in ``sign(request:applicationKey:clientKey:timestamp:fqdn:)``, with
  ///   the timestamp of the request; `responseBody` is the response body bytes.
  /// - Returns: the Base64 signature (44 characters).
  public static func responseSignature(
    request: HTTPRequest, responseBody: Data, applicationKey: String, clientKey: String,
    timestamp: String, fqdn: String? = nil
  ) -> String {
    var message = stringToSign(
      request: request, applicationKey: applicationKey, timestamp: timestamp, fqdn: fqdn)
    if !responseBody.isEmpty {
      let text =
        String(bytes: responseBody, encoding: .utf8)
        ?? responseBody.map { String(format: "%02x", $0) }.joined()
      message += "\n" + text
    }
    return signature(stringToSign: message, clientKey: clientKey)
  }

  /// Checks a response's `X-NCMB-Response-Signature` against the request that was sent
  /// (its `X-NCMB-Application-Key` and `X-NCMB-Timestamp` headers are read).
  ///
  /// - Returns: `nil` when the response carries no response signature (the service omits
  ///   it on some errors), otherwise whether it matches.
  public static func verifyResponse(
    _ response: HTTPResponse, to request: HTTPRequest, clientKey: String, fqdn: String? = nil
  ) -> Bool? {
    guard let sent = response.headerFields[Header.responseSignature] else { return nil }
    let expected = responseSignature(
      request: request, responseBody: response.body,
      applicationKey: request.headerFields[Header.applicationKey] ?? "",
      clientKey: clientKey, timestamp: request.headerFields[Header.timestamp] ?? "",
      fqdn: fqdn)
    return Crypto.constantTimeEquals(Data(expected.utf8), Data(sent.utf8))
  }

  /// `true` when every `%` in `text` starts an escape with two upper-case hex digits.
  public static func hasOnlyCanonicalEscapes(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        for offset in 1...2 {
          guard index + offset < bytes.count else { return false }
          let byte = bytes[index + offset]
          let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
          let isUpperHex = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F")
          guard isDigit || isUpperHex else { return false }
        }
        index += 3
      } else {
        index += 1
      }
    }
    return true
  }

  /// The path as received, then with its trailing slash removed or added.
  private static func pathForms(_ path: String) -> [String] {
    if path.count > 1, path.hasSuffix("/") { return [path, String(path.dropLast())] }
    return [path, path + "/"]
  }
}
