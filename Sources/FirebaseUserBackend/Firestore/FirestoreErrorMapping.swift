import AdapterSupport
import BackendHTTP
import Foundation
import UserBackendKit

/// Turns a Firestore error answer into a ``UserBackendError``; the `status` name of the
/// Google error envelope is kept as `backendCode`, its `message` as the message.
///
/// | answer | portable case |
/// |---|---|
/// | 403 `PERMISSION_DENIED` (the security rules refused) | `permissionDenied` |
/// | 403 with reason `SERVICE_DISABLED` (the Cloud Firestore API is off for the project) | `misconfigured(setting: "projectID")` |
/// | 404 "The database (default) does not exist …" | `misconfigured(setting: "projectID")` |
/// | 429, `RESOURCE_EXHAUSTED` | `rateLimited(retryAfter:)` from `Retry-After` |
/// | 400 `INVALID_ARGUMENT` | `invalidInput` naming the field of `Invalid value at 'fields.x'`, else `fields` |
/// | any other envelope (`ABORTED`, `FAILED_PRECONDITION`, 5xx …) | `server(status:code:message:)` |
/// | no envelope: 429 / 5xx | `rateLimited` / `server` |
/// | no envelope, any other status | `malformedResponse` |
///
/// 401 `UNAUTHENTICATED` is handled by the store (one forced token refresh and one retry)
/// before it reaches here; a second 401 maps to `server(status: 401)`, see
/// ``FirestoreDocumentStore``. A missing document (404 on `GET`) and an existing one
/// (409 `ALREADY_EXISTS` on create) are answers, not errors, there too.
enum FirestoreErrorMapping {
  /// The portable error for a non-2xx answer of `operation` (`"get"`, `"commit"`, …).
  static func error(for response: HTTPResponse, operation: String) -> UserBackendError {
    let retryAfter = RetryAfter.parse(response.headerFields["Retry-After"])
    guard let envelope = FirestoreErrorEnvelope.read(response.body) else {
      if response.status == 429 { return UserBackendError(.rateLimited(retryAfter: retryAfter)) }
      if response.status >= 500 {
        return UserBackendError(.server(status: response.status, code: nil, message: nil))
      }
      let type = response.headerFields["Content-Type"] ?? "no content type"
      return UserBackendError(
        .malformedResponse(
          reason: "Firestore \(operation) answered HTTP \(response.status) with a body that "
            + "is not a Google error object (\(type), \(response.body.count) bytes)"))
    }
    let body = envelope.error
    let status = body.status ?? "HTTP_\(response.status)"
    let code = BackendErrorCode(rawValue: status)
    let message = body.message ?? ""
    if isServiceDisabled(body) {
      return UserBackendError(
        .misconfigured(
          setting: "projectID",
          reason: "the Cloud Firestore API is not enabled for this project"),
        backendCode: code, message: message)
    }
    if isMissingDatabase(body, status: response.status) {
      return UserBackendError(
        .misconfigured(
          setting: "projectID", reason: "the project has no Firestore database (default)"),
        backendCode: code, message: message)
    }
    if status == "PERMISSION_DENIED" {
      return UserBackendError(.permissionDenied, backendCode: code, message: message)
    }
    if status == "INVALID_ARGUMENT" && response.status < 500 {
      return UserBackendError(
        .invalidInput(field: argumentField(message), reason: message), backendCode: code,
        message: message)
    }
    if status == "RESOURCE_EXHAUSTED" || response.status == 429 {
      return UserBackendError(
        .rateLimited(retryAfter: retryAfter), backendCode: code, message: message)
    }
    return UserBackendError(
      .server(status: response.status, code: status, message: body.message), backendCode: code,
      message: message)
  }

  /// Whether the answer is a Google error envelope with `status` (or, without a status,
  /// the HTTP status `httpStatus`): the document-level answers the store handles itself.
  static func isEnvelope(_ response: HTTPResponse, status: String, httpStatus: Int) -> Bool {
    guard response.status == httpStatus,
      let body = FirestoreErrorEnvelope.read(response.body)?.error
    else { return false }
    if isMissingDatabase(body, status: response.status) { return false }
    return body.status.map { $0 == status } ?? (body.code == httpStatus)
  }

  /// The field an `INVALID_ARGUMENT` message names: the quoted path of `Invalid value at
  /// 'fields.score' …`, else `"fields"` (the document).
  static func argumentField(_ message: String) -> String {
    guard let start = message.range(of: "Invalid value at '"),
      let end = message[start.upperBound...].firstIndex(of: "'"),
      start.upperBound < end
    else { return "fields" }
    return String(message[start.upperBound..<end])
  }

  private static func isServiceDisabled(_ body: FirestoreErrorEnvelope.Body) -> Bool {
    (body.details ?? []).contains { $0.reason == "SERVICE_DISABLED" }
      || (body.message ?? "").contains("API has not been used in project")
  }

  private static func isMissingDatabase(_ body: FirestoreErrorEnvelope.Body, status: Int) -> Bool {
    status == 404 && (body.message ?? "").hasPrefix("The database ")
  }
}
