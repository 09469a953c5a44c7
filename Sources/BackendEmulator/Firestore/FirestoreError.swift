import BackendHTTP
import Foundation

/// A Firestore error answer, Google's API error body:
/// `{"error":{"code":403,"message":"Missing or insufficient permissions.","status":"PERMISSION_DENIED"}}`.
struct FirestoreError: Error {
  /// The HTTP status.
  var code: Int
  /// The human-readable text.
  var message: String
  /// The canonical status name (`NOT_FOUND`, `PERMISSION_DENIED`, …).
  var status: String

  /// The JSON error answer.
  var response: HTTPResponse {
    WireResponse.json(code, ["error": ["code": code, "message": message, "status": status]])
  }

  /// 400 `INVALID_ARGUMENT`.
  static func invalidArgument(_ message: String) -> FirestoreError {
    FirestoreError(code: 400, message: message, status: "INVALID_ARGUMENT")
  }

  /// 404 `NOT_FOUND`.
  static func notFound(_ message: String) -> FirestoreError {
    FirestoreError(code: 404, message: message, status: "NOT_FOUND")
  }

  /// 409 `ALREADY_EXISTS` for the document `name`.
  static func alreadyExists(_ name: String) -> FirestoreError {
    FirestoreError(code: 409, message: "Document already exists: \(name)", status: "ALREADY_EXISTS")
  }

  /// 403 `PERMISSION_DENIED`, the answer of a request the rules refuse.
  static let permissionDenied = FirestoreError(
    code: 403, message: "Missing or insufficient permissions.", status: "PERMISSION_DENIED")

  /// 401 `UNAUTHENTICATED`: an ID token that is not valid (expired, malformed, revoked).
  static let unauthenticated = FirestoreError(
    code: 401,
    message:
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login "
      + "cookie or other valid authentication credential. See "
      + "https://developers.google.com/identity/sign-in/web/devconsole-project.",
    status: "UNAUTHENTICATED")

  /// 405-free method refusal: Firestore answers an unknown method on a document with 404.
  static func noRoute(_ method: HTTPMethod, _ path: String) -> FirestoreError {
    notFound("No route for \(method.rawValue) \(path) in this emulator's Firestore subset.")
  }
}
