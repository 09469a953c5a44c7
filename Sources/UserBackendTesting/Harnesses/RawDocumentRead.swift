import BackendHTTP
import Foundation
import NCMBSigning
import UserBackendContracts
import UserBackendKit

/// The environments' own read of a user's document (`rawGetDocument`): the wire protocol's
/// request, built here rather than by the adapter, so that the answer is the server's
/// alone. An adapter may refuse another user's document itself (the NCMB adapter refuses a
/// user object the service let it read); this read proves what the server does.
///
/// - Firestore (docs/wire/firestore.md): `GET <root>/v1/projects/{project}/databases/(default)/documents/users/{uid}`
///   with `Authorization: Bearer <ID token>`. `200` is served; `403 PERMISSION_DENIED`
///   (the rules refused) is refused.
/// - NCMB (docs/wire/ncmb.md, "User fields and ACL"): the signed
///   `GET <base>/2013-09-01/users/{objectId}` with `X-NCMB-Apps-Session-Token`. `200` is
///   served; `404 E404001` (the ACL hides the object) and `403 E403001` (the ACL refused)
///   are refused: the documentation leaves open which of the two the service answers.
///
/// Every other answer (a refused token, a missing document, a server error) is
/// ``UserBackendContracts/ServerAnswer/Kind/other``: it proves no owner rule.
enum RawDocumentRead {
  /// The production Firestore root.
  static let firestoreProductionRoot = "https://firestore.googleapis.com"

  /// Reads `users/{userID}` from Firestore.
  /// - Parameters:
  ///   - host: `host:port` of an emulator (plain HTTP), or `nil` for production.
  /// - Throws: ``RawReadError`` for an ID that makes no URL; transport errors.
  static func firestore(
    userID: String, bearerToken: String, projectID: String, host: String?,
    transport: any HTTPTransport
  ) async throws -> ServerAnswer {
    let root = host.map { "http://" + $0 } ?? firestoreProductionRoot
    let address =
      root
      + "/v1/projects/\(URLPathSegment.encoded(projectID))/databases/(default)/documents/users/"
      + URLPathSegment.encoded(userID)
    guard let url = URL(string: address) else { throw RawReadError(userID: userID) }
    var request = HTTPRequest(method: .get, url: url)
    request.headerFields.append(name: "Authorization", value: "Bearer " + bearerToken)
    let response = try await transport.send(request)
    let code = errorObject(response.body)?["status"] as? String
    let kind: ServerAnswer.Kind =
      switch (response.status, code) {
      case (200, _): .served
      case (403, "PERMISSION_DENIED"): .refused
      default: .other
      }
    return ServerAnswer(kind: kind, status: response.status, code: code)
  }

  /// Reads the user object `userID` from an NCMB server, signed with the keys.
  /// - Parameters:
  ///   - baseURL: the server's base URL (`https://mbaas.api.nifcloud.com`).
  ///   - now: the time stamped in `X-NCMB-Timestamp` (the adapter's clock).
  /// - Throws: ``RawReadError`` for an ID that makes no URL; transport errors.
  static func ncmb(
    userID: String, sessionToken: String, applicationKey: String, clientKey: String,
    baseURL: URL, now: Date, transport: any HTTPTransport
  ) async throws -> ServerAnswer {
    var base = baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let address = base + "/2013-09-01/users/" + NCMBSignature.percentEncode(userID)
    guard let url = URL(string: address) else { throw RawReadError(userID: userID) }
    var request = HTTPRequest(method: .get, url: url)
    let timestamp = NCMBSignature.timestamp(now)
    let signature = NCMBSignature.sign(
      request: request, applicationKey: applicationKey, clientKey: clientKey,
      timestamp: timestamp)
    request.headerFields.append(name: NCMBSignature.Header.applicationKey, value: applicationKey)
    request.headerFields.append(name: NCMBSignature.Header.timestamp, value: timestamp)
    request.headerFields.append(name: NCMBSignature.Header.signature, value: signature)
    request.headerFields.append(name: NCMBSignature.Header.sessionToken, value: sessionToken)
    let response = try await transport.send(request)
    let code =
      (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["code"]
      as? String
    let kind: ServerAnswer.Kind =
      switch (response.status, code) {
      case (200, _): .served
      case (404, "E404001"), (403, "E403001"): .refused
      default: .other
      }
    return ServerAnswer(kind: kind, status: response.status, code: code)
  }

  /// The `error` object of a Google API error body.
  private static func errorObject(_ body: Data) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? [String: Any]
  }

}

extension WireBackend {
  /// The environment's own read of `userID`'s document through `transport`, with the keys
  /// and address the adapter of this run uses (``RawDocumentRead``).
  /// - Throws: ``RawReadError``; transport errors.
  func rawDocumentRead(
    userID: String, bearerToken: String, keys: Keys, now: Date, transport: any HTTPTransport
  ) async throws -> ServerAnswer {
    switch self {
    case .firebase:
      try await RawDocumentRead.firestore(
        userID: userID, bearerToken: bearerToken, projectID: Self.projectID,
        host: keys.firebaseEmulatorHost, transport: transport)
    case .ncmb:
      try await RawDocumentRead.ncmb(
        userID: userID, sessionToken: bearerToken, applicationKey: keys.ncmbApplicationKey,
        clientKey: keys.ncmbClientKey, baseURL: keys.ncmbBaseURL, now: now, transport: transport)
    }
  }
}

/// A user ID that makes no request URL. Names the ID (not a secret), nothing else.
struct RawReadError: Error, Sendable, Hashable, CustomStringConvertible {
  var userID: String
  var description: String { "no document URL can be built for user \"\(userID)\"" }
}
