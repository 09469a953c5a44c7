import AccountDatabase
import BackendHTTP
import Foundation
import NCMBSigning
import UserBackendKit

/// NCMB (NIFCLOUD mobile backend) user REST API over a ``FakeUserBackend/UserStore``,
/// following `docs/wire/ncmb.md` §1–§4.
///
/// Routes, below `/2013-09-01/` on any host (a base-path prefix before it is allowed):
/// `POST users` (sign-up with `userName` + `password` [+ `mailAddress`] → 201; or
/// `authData.anonymous` / `authData.apple` → 201 new, 200 existing), `GET/PUT/DELETE
/// users/{objectId}` (only the session owner may change or delete: others get `E403001`),
/// `POST login` (JSON) and `GET login` (query), `GET logout`, `POST requestPasswordReset`.
///
/// Every request must carry `X-NCMB-Application-Key`, `X-NCMB-Timestamp` and
/// `X-NCMB-Signature`; the signature (v2) is verified with
/// ``NCMBUserBackend/NCMBSignature`` over the raw path and raw query as received, with or
/// without a trailing slash, signed for the request's host (without port) or
/// `mbaas.api.nifcloud.com`; a signed path or query with a percent-escape that is not
/// upper-case hex (`%7b`) is refused as the service refuses it. Errors: missing headers or an unreadable timestamp → 401
/// `E401001`; another application key → 404 `E404005`; wrong signature → 403 `E403002`;
/// invalid or logged-out session token → 401 `E401001`; duplicates → 409 `E409001`;
/// wrong user name or password → 401 `E401002`.
public struct NCMBHandler: Sendable {
  /// The accounts.
  public let store: UserStore
  /// The application key requests must carry.
  public let applicationKey: String
  /// The client key signatures must use.
  public let clientKey: String

  /// The API version path segment, `2013-09-01`.
  static let apiVersion = "2013-09-01"

  /// A handler over `store`, by default with the public ``NCMBDemoKeys``.
  public init(
    store: UserStore, applicationKey: String = NCMBDemoKeys.applicationKey,
    clientKey: String = NCMBDemoKeys.clientKey
  ) {
    self.store = store
    self.applicationKey = applicationKey
    self.clientKey = clientKey
  }

  /// `true` when `request`'s path is an NCMB API path (contains `/2013-09-01/` or ends
  /// with `/2013-09-01`).
  public static func handles(_ request: HTTPRequest) -> Bool {
    resourcePath(request.rawPath) != nil
  }

  /// Answers one request; never throws (errors are NCMB error answers).
  ///
  /// Answers to authenticated requests carry `X-NCMB-Response-Signature` (`docs/wire/ncmb.md` §2,
  /// "Response signature"), computed for the host the client signed, except for the
  /// codes the service sends unsigned (`E404002`, `E404005`, `E405002`, `E415001`).
  ///
  /// The store's calls run through ``AccountDatabase/UserStore/waitingOffPool(_:)``: on a
  /// file store, whose statements may wait for another process's lock, off the
  /// cooperative pool; on an in-memory one, inline.
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    await store.waitingOffPool { answer(request) }
  }

  /// ``handle(_:)`` on the calling thread.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    let signedHost: String
    do {
      signedHost = try authenticate(request)
    } catch {
      return error.response
    }
    var response: HTTPResponse
    var code: String?
    do {
      response = try respond(to: request)
    } catch {
      response = error.response
      code = error.code
    }
    if !Self.unsignedErrorCodes.contains(code ?? "") {
      response.headerFields[NCMBSignature.Header.responseSignature] =
        NCMBSignature.responseSignature(
          request: request, responseBody: response.body, applicationKey: applicationKey,
          clientKey: clientKey,
          timestamp: request.headerFields[NCMBSignature.Header.timestamp] ?? "",
          fqdn: signedHost)
    }
    return response
  }

  /// Error codes answered without a response signature (`docs/wire/ncmb.md` §2).
  static let unsignedErrorCodes: Set<String> = ["E404002", "E404005", "E405002", "E415001"]

  private func respond(to request: HTTPRequest) throws(NCMBError) -> HTTPResponse {
    guard let resource = Self.resourcePath(request.rawPath) else { throw .noService }
    let segments = resource.split(separator: "/").map {
      String($0).removingPercentEncoding ?? String($0)
    }
    let context = try NCMBRequestContext(request: request, store: store)
    switch (segments.first, segments.count, request.method) {
    case ("users", 1, .post): return try createUser(context)
    case ("users", 2, .get): return try fetchUser(id: segments[1], context)
    case ("users", 2, .put): return try updateUser(id: segments[1], context)
    case ("users", 2, .delete): return try deleteUser(id: segments[1], context)
    case ("users", 1, _), ("users", 2, _): throw .methodNotAllowed
    case ("login", 1, .post), ("login", 1, .get): return try login(context)
    case ("logout", 1, .get): return try logout(context)
    case ("requestPasswordReset", 1, .post): return try requestPasswordReset(context)
    case ("login", 1, _), ("logout", 1, _), ("requestPasswordReset", 1, _):
      throw .methodNotAllowed
    default: throw .noService
    }
  }

  /// Checks the three signature headers, the application key and the signature.
  ///
  /// - Returns: the host the client signed: the request's host in lower case (the service
  ///   signs its own name so; `Host` is case-insensitive), else the canonical FQDN.
  private func authenticate(_ request: HTTPRequest) throws(NCMBError) -> String {
    guard let timestamp = request.headerFields[NCMBSignature.Header.timestamp],
      NCMBTimestamp.parse(timestamp) != nil
    else { throw .headerIncorrect }
    let hosts = [request.url.host?.lowercased(), NCMBSignature.defaultFQDN].compactMap { $0 }
    for (index, host) in hosts.enumerated() {
      do {
        try NCMBSignature.validate(
          request: request, clientKey: clientKey, acceptedHosts: [host],
          applicationKey: applicationKey)
        return host
      } catch {
        switch error {
        case .missingHeader: throw .headerIncorrect
        case .unknownApplicationKey: throw .noApplication
        case .nonCanonicalEncoding: throw .badSignature
        case .signatureMismatch where index == hosts.count - 1: throw .badSignature
        case .signatureMismatch: continue
        }
      }
    }
    throw .badSignature
  }

  /// The path after `/2013-09-01/` (possibly empty), or `nil` when the path has no such
  /// segment.
  static func resourcePath(_ rawPath: String) -> String? {
    let marker = "/\(apiVersion)"
    guard let range = rawPath.range(of: marker) else { return nil }
    let rest = rawPath[range.upperBound...]
    guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
    return String(rest.drop { $0 == "/" })
  }

  /// `createDate` / `updateDate` text: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC.
  static func dateText(_ date: Date) -> String { NCMBSignature.timestamp(date) }
}

/// What every endpoint needs from the request: the JSON body (for POST/PUT), the query
/// and the session token's user, if any.
struct NCMBRequestContext {
  /// The decoded JSON body; empty for `GET`/`DELETE`.
  var body: WireObject
  /// The query parameters, decoded.
  var query: WireObject
  /// The session token sent in `X-NCMB-Apps-Session-Token`, if any.
  var sessionToken: String?
  /// The user that token belongs to; `nil` when no token was sent.
  var sessionUserID: String?

  /// - Throws: `E400001` for a body that is not a JSON object; `E400002` naming the member
  ///   for two names of one object that are the same text in other bytes (canonically
  ///   equivalent) and for a number a double cannot hold (`1e400`, `1e-400`: it would read
  ///   as 0; ``UserBackendKit/JSONTextCheck``); `E400002` when `userName`,
  ///   `password` or `mailAddress` is not a string (or null); `E401001` for a session
  ///   token the store does not know (never issued, logged out, or its user deleted).
  init(request: HTTPRequest, store: UserStore) throws(NCMBError) {
    if request.method == .post || request.method == .put {
      // What JSONSerialization would lose silently (a name twice under canonical
      // equivalence, a number read as 0) or refuse without naming the field.
      if let problem = JSONTextCheck.firstProblem(request.body) {
        throw NCMBError(
          "E400002", "\(JSONTextCheck.dotted(problem.path)) is invalid: \(problem.reason).")
      }
      guard let body = WireObject.parse(request.body) else { throw .invalidJSON }
      if let field = body.firstNonString(among: ["userName", "password", "mailAddress"]) {
        throw .wrongType(field)
      }
      self.body = body
    } else {
      body = WireObject()
    }
    query = WireObject.parseForm(request.rawQuery ?? "")
    let token = request.headerFields[NCMBSignature.Header.sessionToken]
    sessionToken = token?.isEmpty == false ? token : nil
    if let sessionToken {
      guard let userID = try ncmbStore({ try store.userID(forSessionToken: sessionToken) })
      else { throw .headerIncorrect }
      sessionUserID = userID
    }
  }
}
