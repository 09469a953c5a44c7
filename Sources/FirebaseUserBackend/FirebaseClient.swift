import AdapterSupport
import BackendHTTP
import Foundation
import UserBackendKit

/// Sends one ``FirebaseEndpoint`` and decodes its answer: the one request function the
/// adapter is built from.
///
/// Every failure is a ``UserBackendError``: transport failures become `.network` (no URL
/// in the reason), error answers go through ``FirebaseErrorMapper``, undecodable answers
/// become `.malformedResponse`. Messages are scrubbed of the API key and of every secret
/// the request carried.
struct FirebaseClient: Sendable {
  let endpoints: FirebaseEndpoints
  let transport: any HTTPTransport

  /// Sends `endpoint`.
  ///
  /// - Parameters:
  ///   - capability: the capability the call belongs to (for `OPERATION_NOT_ALLOWED`).
  ///   - usesSession: `true` when the request carries the session's tokens.
  ///   - secrets: values in the request that must never appear in an error.
  /// - Throws: ``UserBackendError``.
  func send<Endpoint: FirebaseEndpoint>(
    _ endpoint: Endpoint, capability: Capability, usesSession: Bool = false,
    secrets: [String] = []
  ) async throws(UserBackendError) -> Endpoint.Response {
    let context = FirebaseErrorContext(
      operation: Self.operationName(Endpoint.service), capability: capability,
      usesSession: usesSession)
    let allSecrets = [endpoints.apiKey] + secrets
    do {
      return try await perform(endpoint, context: context)
    } catch {
      throw Self.scrub(error, secrets: allSecrets)
    }
  }

  private func perform<Endpoint: FirebaseEndpoint>(
    _ endpoint: Endpoint, context: FirebaseErrorContext
  ) async throws(UserBackendError) -> Endpoint.Response {
    let request = try makeRequest(endpoint)
    let response = try await transport.sendForBackend(request)
    guard response.isSuccess else {
      throw FirebaseErrorMapper.error(for: response, context: context)
    }
    let decoded: Endpoint.Response
    do {
      decoded = try JSONDecoder().decode(Endpoint.Response.self, from: response.body)
    } catch {
      throw UserBackendError(
        .malformedResponse(
          reason: "\(context.operation): \(Self.describeDecoding(error, body: response.body))"))
    }
    if let embedded = decoded.embeddedErrorMessage {
      let parts = FirebaseErrorMessage(embedded)
      throw FirebaseErrorMapper.error(
        code: parts.code ?? "UNKNOWN", detail: parts.detail, status: response.status,
        context: context)
    }
    return decoded
  }

  /// The HTTP request for `endpoint`: `POST`, the full URL with `?key=`, `Content-Type`.
  func makeRequest<Endpoint: FirebaseEndpoint>(_ endpoint: Endpoint) throws(UserBackendError)
    -> HTTPRequest
  {
    guard let url = endpoints.url(for: Endpoint.service) else {
      throw UserBackendError(
        .misconfigured(setting: "apiKey", reason: "does not form a valid request URL"))
    }
    let body: FirebaseRequestBody
    do {
      body = try endpoint.body()
    } catch {
      throw UserBackendError(
        .invalidInput(field: "request", reason: "could not be encoded as \(Endpoint.self)"))
    }
    return HTTPRequest(
      method: .post, url: url, headerFields: ["Content-Type": body.contentType], body: body.data)
  }

  /// `accounts:signUp`, `token`.
  static func operationName(_ service: FirebaseService) -> String {
    switch service {
    case .identityToolkit(let path): path
    case .secureToken: "token"
    }
  }

  /// A decoding failure without any value from the body (which may hold tokens).
  static func describeDecoding(_ error: any Error, body: Data) -> String {
    let path: ([any CodingKey]) -> String = { keys in
      keys.isEmpty ? "the top level" : keys.map(\.stringValue).joined(separator: ".")
    }
    guard let decodingError = error as? DecodingError else {
      return "the answer could not be decoded"
    }
    switch decodingError {
    case .keyNotFound(let key, let context):
      return "missing field \(path(context.codingPath + [key]))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "unexpected value type at \(path(context.codingPath))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        guard !body.isEmpty else { return "empty body" }
        if let reason = UnreadableJSON.reason(body) {
          return "the body is JSON that cannot be read: \(reason)"
        }
        // HTML only when it looks like markup: JSON the reader refuses (a lone surrogate
        // escape such as "\ud800") is not HTML.
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "<")
          ? "the body is not valid JSON (\(body.count) bytes; it looks like HTML)"
          : "the body is not valid JSON (\(body.count) bytes)"
      }
      return "invalid value at \(path(context.codingPath))"
    @unknown default:
      return "the answer could not be decoded"
    }
  }

  /// Replaces every secret (raw and percent-encoded) in the error's texts, its password
  /// requirements included (`SecretRedaction.redact(_:secrets:)` for errors).
  static func scrub(_ error: UserBackendError, secrets: [String]) -> UserBackendError {
    SecretRedaction.redact(error, secrets: secrets)
  }
}
