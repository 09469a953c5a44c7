import AdapterSupport
import BackendHTTP
import Foundation
import NCMBSigning
import UserBackendKit

/// One NCMB API call before signing: method, path below `/2013-09-01/`, query and body.
struct NCMBEndpoint: Sendable, Hashable {
  /// The method.
  var method: HTTPMethod
  /// Path segments below the API version, unencoded (`["users", objectId]`).
  var pathSegments: [String]
  /// Query items in wire order; encoded with ``NCMBSignature/encodeQuery(_:)``.
  var query: [URLQueryItem] = []
  /// The JSON body, or empty.
  var body: Data = Data()
  /// A short name for error messages: `"sign-up"`, `"login"`, ….
  var name: String
}

/// A successful (2xx) answer.
struct NCMBAnswer: Sendable {
  var status: Int
  var body: Data
}

/// An NCMB error answer, before it is mapped to a portable error.
struct NCMBServerError: Error, Sendable {
  var status: Int
  var code: String
  var message: String?
  var retryAfter: TimeInterval?
}

/// Builds, signs and sends NCMB requests; turns transport failures, bad bodies and
/// response-signature mismatches into ``UserBackendError`` and error bodies into
/// ``NCMBServerError``.
struct NCMBClient: Sendable {
  let configuration: NCMBConfiguration
  let transport: any HTTPTransport
  let clock: any AuthClock
  /// The base URL as absolute text with the path's trailing slashes removed, made once;
  /// `nil` when it does not parse or has a query or fragment (which the configuration
  /// refuses, and which would swallow a path appended as text: every request then fails
  /// with `.misconfigured(setting: "baseURL")`).
  private let base: String?

  init(configuration: NCMBConfiguration, transport: any HTTPTransport, clock: any AuthClock) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    // Absolute: a base URL made relative to another (`URL(string:relativeTo:)`) is sent
    // to its resolved address, as its host (and so the signed FQDN) is read through it.
    var components = URLComponents(
      url: configuration.baseURL.absoluteURL, resolvingAgainstBaseURL: false)
    if var path = components?.percentEncodedPath {
      while path.hasSuffix("/") { path.removeLast() }
      components?.percentEncodedPath = path
    }
    self.base =
      components?.query == nil && components?.fragment == nil ? components?.string : nil
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// JSON bytes of `value` (sorted keys).
  static func json(_ value: some Encodable) throws(UserBackendError) -> Data {
    do {
      return try encoder.encode(value)
    } catch {
      throw UserBackendError(.invalidInput(field: "request", reason: "cannot be encoded as JSON"))
    }
  }

  /// The signed request for `endpoint`, stamped with the clock's current time.
  ///
  /// Header order: application key, timestamp, signature, session token (when given),
  /// `Content-Type: application/json`.
  func request(for endpoint: NCMBEndpoint, sessionToken: String?) throws(UserBackendError)
    -> HTTPRequest
  {
    // Built as text and parsed once: composing `URLComponents` per request was a tenth of
    // the NCMB adapter's own sign-in work (`baas bench`). Every part is percent-encoded.
    let path = ([NCMBConfiguration.apiVersion] + endpoint.pathSegments)
      .map(NCMBSignature.percentEncode).joined(separator: "/")
    let query = NCMBSignature.encodeQuery(endpoint.query)
    guard let base, let url = URL(string: base + "/" + path + (query.isEmpty ? "" : "?" + query))
    else {
      throw UserBackendError(.misconfigured(setting: "baseURL", reason: "is not a valid URL"))
    }
    var request = HTTPRequest(
      method: endpoint.method, url: url, body: endpoint.body,
      timeout: configuration.requestTimeout)
    let timestamp = NCMBSignature.timestamp(clock.now())
    let signature = NCMBSignature.sign(
      request: request, applicationKey: configuration.applicationKey,
      clientKey: configuration.clientKey, timestamp: timestamp, fqdn: configuration.fqdn)
    request.headerFields.append(
      name: NCMBSignature.Header.applicationKey, value: configuration.applicationKey)
    request.headerFields.append(name: NCMBSignature.Header.timestamp, value: timestamp)
    request.headerFields.append(name: NCMBSignature.Header.signature, value: signature)
    if let sessionToken {
      request.headerFields.append(name: NCMBSignature.Header.sessionToken, value: sessionToken)
    }
    request.headerFields.append(name: "Content-Type", value: "application/json")
    return request
  }

  /// Sends `endpoint`.
  ///
  /// - Returns: the 2xx answer.
  /// - Throws: ``NCMBServerError`` for an NCMB error body; ``UserBackendError`` with
  ///   `.network` (no answer, cancelled), `.rateLimited` / `.server` (a 429 / 5xx status
  ///   without an NCMB error body), `.malformedResponse` (another error status without an
  ///   NCMB error body, a response-signature mismatch) or `.misconfigured` (base URL).
  func send(_ endpoint: NCMBEndpoint, sessionToken: String?) async throws -> NCMBAnswer {
    let request = try request(for: endpoint, sessionToken: sessionToken)
    let response = try await transport.sendForBackend(request)
    if configuration.validatesResponseSignature,
      NCMBSignature.verifyResponse(
        response, to: request, clientKey: configuration.clientKey, fqdn: configuration.fqdn)
        == false
    {
      throw UserBackendError(
        .malformedResponse(
          reason: "the \(endpoint.name) response signature (X-NCMB-Response-Signature) "
            + "does not match"),
        backendCode: "E100001")
    }
    guard response.isSuccess else {
      guard let body = try? JSONDecoder().decode(NCMBErrorBody.self, from: response.body),
        !body.code.isEmpty
      else {
        // No NCMB body: a gateway or proxy answered. Its status still says what happened.
        let retryAfter = RetryAfter.parse(response.headerFields["Retry-After"])
        let reason =
          "the \(endpoint.name) answer has HTTP status \(response.status) "
          + "without an NCMB error body"
        if response.status == 429 {
          throw UserBackendError(.rateLimited(retryAfter: retryAfter), message: reason)
        }
        if response.status >= 500 {
          throw UserBackendError(
            .server(status: response.status, code: nil, message: nil), message: reason)
        }
        throw UserBackendError(.malformedResponse(reason: reason))
      }
      // A server or proxy may quote the request back: its secrets never reach the error.
      let secrets = Self.secrets(of: endpoint, sessionToken: sessionToken, configuration)
      throw NCMBServerError(
        status: response.status, code: SecretRedaction.redact(body.code, secrets: secrets),
        message: body.error.map { SecretRedaction.redact($0, secrets: secrets) },
        retryAfter: RetryAfter.parse(response.headerFields["Retry-After"]))
    }
    return NCMBAnswer(status: response.status, body: response.body)
  }

  /// The secrets a request for `endpoint` carries: both keys, the session token, and in
  /// the JSON body every `password` value and everything under `authData` (provider
  /// tokens).
  static func secrets(
    of endpoint: NCMBEndpoint, sessionToken: String?, _ configuration: NCMBConfiguration
  ) -> [String] {
    var secrets = [configuration.applicationKey, configuration.clientKey]
    if let sessionToken { secrets.append(sessionToken) }
    guard !endpoint.body.isEmpty,
      let object = try? JSONSerialization.jsonObject(with: endpoint.body) as? [String: Any]
    else { return secrets }
    func strings(in value: Any) -> [String] {
      switch value {
      case let text as String: [text]
      case let array as [Any]: array.flatMap(strings(in:))
      case let dictionary as [String: Any]: dictionary.values.flatMap(strings(in:))
      default: []
      }
    }
    for (key, value) in object where key == "password" || key == "authData" {
      secrets += strings(in: value)
    }
    return secrets
  }

  /// Decodes a 2xx body.
  /// - Throws: ``UserBackendError`` `.malformedResponse` naming the endpoint and the
  ///   missing or mistyped field, never the body's contents.
  static func decode<T: Decodable>(_ type: T.Type, from answer: NCMBAnswer, endpoint: String)
    throws(UserBackendError) -> T
  {
    do {
      return try JSONDecoder().decode(type, from: answer.body)
    } catch let DecodingError.keyNotFound(key, _) {
      throw malformed(endpoint, "has no \(key.stringValue)")
    } catch let DecodingError.typeMismatch(_, context) {
      throw malformed(endpoint, "has a wrongly typed \(path(context))")
    } catch let DecodingError.valueNotFound(_, context) {
      throw malformed(endpoint, "has a null \(path(context))")
    } catch {
      if let reason = UnreadableJSON.reason(answer.body) {
        throw malformed(endpoint, "is JSON that cannot be read: \(reason)")
      }
      throw malformed(endpoint, "is not valid JSON")
    }
  }

  static func malformed(_ endpoint: String, _ problem: String) -> UserBackendError {
    UserBackendError(.malformedResponse(reason: "the \(endpoint) response \(problem)"))
  }

  private static func path(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "body" : path
  }
}
