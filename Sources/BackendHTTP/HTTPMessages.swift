import Foundation

/// An HTTP method, an open set (`"GET"`, `"POST"`, …).
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The method token, upper-case.
  public let rawValue: String
  /// Wraps a method token (upper-cased).
  public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
  /// Wraps a method token (upper-cased).
  public init(stringLiteral value: String) { self.init(rawValue: value) }
  /// The method token.
  public var description: String { rawValue }

  /// `GET`
  public static let get: HTTPMethod = "GET"
  /// `POST`
  public static let post: HTTPMethod = "POST"
  /// `PUT`
  public static let put: HTTPMethod = "PUT"
  /// `DELETE`
  public static let delete: HTTPMethod = "DELETE"
  /// `PATCH`
  public static let patch: HTTPMethod = "PATCH"
  /// `HEAD`
  public static let head: HTTPMethod = "HEAD"
  /// `OPTIONS`
  public static let options: HTTPMethod = "OPTIONS"
}

/// An HTTP request as a value: method, absolute URL (its percent-encoding is exactly
/// what goes on the wire), ordered header fields and the body bytes.
public struct HTTPRequest: Sendable, Hashable, Codable {
  /// The method.
  public var method: HTTPMethod
  /// The absolute URL, e.g. `https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=…`.
  public var url: URL
  /// The header fields, in order.
  public var headerFields: HTTPFields
  /// The body bytes; empty for none.
  public var body: Data
  /// A per-request timeout in seconds, or `nil` for the transport's default.
  public var timeout: TimeInterval?

  /// A request.
  public init(
    method: HTTPMethod, url: URL, headerFields: HTTPFields = [:], body: Data = Data(),
    timeout: TimeInterval? = nil
  ) {
    self.method = method
    self.url = url
    self.headerFields = headerFields
    self.body = body
    self.timeout = timeout
  }

  /// The percent-encoded path as on the wire (`/2013-09-01/users`), never empty.
  public var rawPath: String {
    // An absolute URL answers from its own parse; a relative one keeps its relative part,
    // as `URLComponents(resolvingAgainstBaseURL: false)` reads it. Parsing the URL again
    // into components was a visible share of a signed NCMB request (`baas bench`).
    let path =
      url.baseURL == nil
      ? url.path(percentEncoded: true)
      : URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    return path.isEmpty ? "/" : path
  }

  /// The percent-encoded query as on the wire, without `?`, or `nil`.
  public var rawQuery: String? {
    url.baseURL == nil
      ? url.query(percentEncoded: true)
      : URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
  }
}

/// An HTTP response as a value: status code, ordered header fields and the body bytes.
public struct HTTPResponse: Sendable, Hashable, Codable {
  /// The status code, e.g. `200`.
  public var status: Int
  /// The header fields, in order.
  public var headerFields: HTTPFields
  /// The body bytes; empty for none.
  public var body: Data

  /// A response.
  public init(status: Int, headerFields: HTTPFields = [:], body: Data = Data()) {
    self.status = status
    self.headerFields = headerFields
    self.body = body
  }

  /// `true` for 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }
}
