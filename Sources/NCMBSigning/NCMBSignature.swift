import BackendHTTP
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import UserBackendKit

/// NCMB request signatures, version 2 (HMAC-SHA256), for clients, servers and replay.
///
/// Follows `docs/wire/ncmb.md` §2 ("Signature (version 2, HMAC-SHA256)"):
///
/// ```
/// string to sign = METHOD "\n" FQDN "\n" PATH "\n" PARAMS
/// PARAMS         = the pairs SignatureMethod=HmacSHA256, SignatureVersion=2,
///                  X-NCMB-Application-Key=<key>, X-NCMB-Timestamp=<timestamp> and, for GET
///                  only, every query pair exactly as it is on the wire; sorted by key
///                  (byte order), joined by "&"
/// signature      = Base64(HMAC-SHA256(key: client key, message: string to sign))  // 44 chars
/// ```
///
/// The FQDN is a host name without port (`mbaas.api.nifcloud.com`); the path is the
/// percent-encoded path as on the wire; the request body is never signed. Everything is
/// computed from the request's URL as it will be sent, so the signed bytes and the wire
/// bytes cannot differ: build the query with ``encodeQuery(_:)`` and sign the result.
public enum NCMBSignature {
  /// The FQDN of the hosted service, `mbaas.api.nifcloud.com` (`docs/wire/ncmb.md` §1).
  public static let defaultFQDN = "mbaas.api.nifcloud.com"
  /// The value of the `SignatureMethod` parameter, `HmacSHA256`.
  public static let signatureMethod = "HmacSHA256"
  /// The value of the `SignatureVersion` parameter, `2`.
  public static let signatureVersion = "2"

  /// Header names used by the signature scheme (`docs/wire/ncmb.md` §1, "Request headers").
  public enum Header {
    /// `X-NCMB-Application-Key`: the application key (sent and signed).
    public static let applicationKey = "X-NCMB-Application-Key"
    /// `X-NCMB-Timestamp`: the timestamp, signed exactly as sent.
    public static let timestamp = "X-NCMB-Timestamp"
    /// `X-NCMB-Signature`: the Base64 request signature.
    public static let signature = "X-NCMB-Signature"
    /// `X-NCMB-Apps-Session-Token`: the signed-in user's session token (not signed).
    public static let sessionToken = "X-NCMB-Apps-Session-Token"
    /// `X-NCMB-Response-Signature`: the server's optional response signature.
    public static let responseSignature = "X-NCMB-Response-Signature"
  }

  /// The request signature for `request`.
  ///
  /// - Parameters:
  ///   - request: the request as it goes on the wire; its method, percent-encoded path
  ///     and (for `GET` only) percent-encoded query are signed. Its headers are not read.
  ///   - applicationKey: the application key (the value of `X-NCMB-Application-Key`).
  ///   - clientKey: the client key, the HMAC key; never sent.
  ///   - timestamp: the exact value of `X-NCMB-Timestamp` (see ``timestamp(_:)``).
  ///   - fqdn: the host to sign; `nil` uses the request URL's host in lower case. Precondition (not
  ///     checked: this function never fails): a host name as the server knows itself,
  ///     e.g. `mbaas.api.nifcloud.com`; anything else (a scheme, a port, spaces, upper
  ///     case) gives a signature no server matches. Check a user-supplied value with
  ///     ``fqdnProblem(_:)``.
  /// - Returns: the Base64 signature with `=` padding (44 characters).
  public static func sign(
    request: HTTPRequest, applicationKey: String, clientKey: String, timestamp: String,
    fqdn: String? = nil
  ) -> String {
    signature(
      stringToSign: stringToSign(
        request: request, applicationKey: applicationKey, timestamp: timestamp, fqdn: fqdn),
      clientKey: clientKey)
  }

  /// The string to sign for `request` (see ``sign(request:applicationKey:clientKey:timestamp:fqdn:)``
  /// for the parameters). Lines are joined by `"\n"`, with no trailing newline.
  public static func stringToSign(
    request: HTTPRequest, applicationKey: String, timestamp: String, fqdn: String? = nil
  ) -> String {
    stringToSign(
      method: request.method, fqdn: fqdn ?? request.url.host?.lowercased() ?? "",
      path: request.rawPath,
      query: request.method == .get ? request.rawQuery : nil,
      applicationKey: applicationKey, timestamp: timestamp)
  }

  /// The string to sign from its parts.
  ///
  /// - Parameters:
  ///   - method: the HTTP method.
  ///   - fqdn: the host name, without port.
  ///   - path: the percent-encoded path, e.g. `/2013-09-01/users`.
  ///   - query: the percent-encoded query without `?`, exactly as on the wire, or `nil`.
  ///     Pass it only for `GET`: other methods do not sign their query.
  ///   - applicationKey: the application key.
  ///   - timestamp: the `X-NCMB-Timestamp` value as sent.
  public static func stringToSign(
    method: HTTPMethod, fqdn: String, path: String, query: String?, applicationKey: String,
    timestamp: String
  ) -> String {
    [
      method.rawValue, fqdn, path,
      signedParameters(applicationKey: applicationKey, timestamp: timestamp, query: query),
    ].joined(separator: "\n")
  }

  /// Base64(HMAC-SHA256(client key, string to sign)), both as UTF-8.
  public static func signature(stringToSign: String, clientKey: String) -> String {
    Crypto.hmacSHA256(key: Data(clientKey.utf8), message: Data(stringToSign.utf8))
      .base64EncodedString()
  }

  /// The `X-NCMB-Timestamp` value for `date`: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC
  /// (24-hour clock, milliseconds), e.g. `2013-12-02T02:44:35.452Z`. Dates outside the
  /// years 0001–9999 (an injected clock pushed far away) are clamped to that range.
  public static func timestamp(_ date: Date) -> String {
    // Whole milliseconds, truncated, then broken down in UTC with gmtime_r: a new
    // DateFormatter per call cost ~100 µs (most of a signed request; see `baas bench`).
    let millisecondRange = -62_135_596_800_000.0...253_402_300_799_999.0
    let raw = (date.timeIntervalSince1970 * 1000).rounded(.down)
    let milliseconds = Int64(
      raw.isNaN ? 0 : min(max(raw, millisecondRange.lowerBound), millisecondRange.upperBound))
    var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
    let fraction = Int(milliseconds - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
      + ".\(pad(Int32(fraction), 3))Z"
  }

  /// The sorted `PARAMS` line: the four fixed pairs plus the raw query pairs, sorted by
  /// key in byte order (pairs with equal keys keep their wire order).
  static func signedParameters(applicationKey: String, timestamp: String, query: String?)
    -> String
  {
    var pairs = [
      "SignatureMethod=\(signatureMethod)",
      "SignatureVersion=\(signatureVersion)",
      "\(Header.applicationKey)=\(applicationKey)",
      "\(Header.timestamp)=\(timestamp)",
    ]
    if let query {
      // Split at every `&` byte (and keys below end at the first `=` byte), without
      // grapheme breaking (`baas bench`, NCMB signing). A query taken from a URL is
      // percent-encoded ASCII, where this is the split by `Character`; raw text with a
      // mark glued to a separator is now split there too.
      pairs += query.utf8.split(separator: UInt8(ascii: "&")).map { String(Substring($0)) }
    }
    // Keys taken once per pair, not once per comparison.
    let keyed = pairs.enumerated().map { pair in
      (
        key: pair.element.utf8.prefix { $0 != UInt8(ascii: "=") }, offset: pair.offset,
        element: pair.element
      )
    }
    let sorted = keyed.sorted { lhs, rhs in
      if !lhs.key.elementsEqual(rhs.key) { return lhs.key.lexicographicallyPrecedes(rhs.key) }
      return lhs.offset < rhs.offset
    }
    return sorted.map(\.element).joined(separator: "&")
  }
}
