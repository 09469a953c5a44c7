import AccountDatabase
import BackendHTTP
import Foundation

/// Both emulated wire protocols over one ``FakeUserBackend/UserStore``, routed by path:
/// requests whose path has a `/2013-09-01/` segment go to the ``NCMBHandler`` (on any
/// host), `/v1/projects/{id}/databases/…` to the ``FirestoreHandler`` (the users'
/// documents), everything else to the ``FirebaseAuthHandler`` (production hosts, the
/// emulator's path-prefixed URL form, and `/emulator/v1/projects/{id}/…`). The two path
/// spaces do not collide, so one server port serves both (docs/ARCHITECTURE.md "The emulator").
///
/// **One account table.** Both APIs read and write the same accounts, by design: an
/// account made through one API signs in through the other, and its email or user name
/// is taken for both.
/// - An account created through Firebase (email + password, no user name) has its email
///   as its NCMB `userName`: NCMB `login` accepts it as `userName` (which is what the
///   NCMB adapter sends for an `.email` credential) or as `mailAddress`, user objects show
///   it in both fields, and NCMB sign-up of that `userName` is `E409001 userName is
///   duplication.`. A real user name always wins: `login` looks up `userName` among user
///   names first.
/// - An account created through NCMB with a `mailAddress` signs in through Firebase with
///   that email; Firebase sign-up of it is `EMAIL_EXISTS`.
/// - NCMB mail-address login (`docs/wire/ncmb.md` §3) needs a confirmed address on
///   the real service; this emulator sends no mail, so it does not require confirmation.
/// - Only the email and user name columns are unique indexes. An NCMB sign-up of
///   `userName` X without a `mailAddress` racing a Firebase sign-up of email X can both
///   succeed; NCMB `login` then finds the NCMB account.
public struct BackendEmulator: Sendable {
  /// The accounts both protocols share.
  public let store: UserStore
  /// The Firebase Auth handler.
  public let firebase: FirebaseAuthHandler
  /// The NCMB handler.
  public let ncmb: NCMBHandler
  /// The Firestore handler (`/v1/projects/…/databases/…`: the users' documents).
  public let firestore: FirestoreHandler
  /// Receives one record per request handled (query values redacted); `nil` logs nothing.
  public let logger: HTTPLogger?
  /// The last 200 requests, for the web page (`GET /emulator/v1/projects/{id}/requests`).
  public let requestLog = EmulatorRequestLog()

  /// An emulator over `store`.
  ///
  /// - Parameters:
  ///   - projectID: the Firebase project ID put in ID tokens, and the only one that
  ///     project-scoped paths may name (others are `404`, ``ProjectScope``).
  ///   - ncmbApplicationKey: the application key NCMB requests must carry (default: the
  ///     public ``NCMBDemoKeys/applicationKey``).
  ///   - ncmbClientKey: the key NCMB signatures must use (default: the public
  ///     ``NCMBDemoKeys/clientKey``).
  ///   - logger: receives one record per request handled; `nil` logs nothing.
  ///   - tokenSigning: signs Firebase ID tokens RS256 and serves its certificate when
  ///     given; `nil` (default) leaves them unsigned, as the Firebase Auth Emulator does.
  ///   - recentLoginWindow: seconds (store clock) a Firebase sign-in's `auth_time` counts
  ///     as recent for password and email changes and deletion (older:
  ///     `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`); default 300; `nil` never refuses.
  public init(
    store: UserStore, projectID: String = "demo-project",
    ncmbApplicationKey: String = NCMBDemoKeys.applicationKey,
    ncmbClientKey: String = NCMBDemoKeys.clientKey, logger: HTTPLogger? = nil,
    tokenSigning: FirebaseTokenSigning? = nil, recentLoginWindow: TimeInterval? = 300
  ) {
    self.store = store
    self.logger = logger
    firebase = FirebaseAuthHandler(
      store: store, projectID: projectID, signing: tokenSigning,
      recentLoginWindow: recentLoginWindow)
    firestore = FirestoreHandler(store: store, projectID: projectID, signing: tokenSigning)
    ncmb = NCMBHandler(
      store: store, applicationKey: ncmbApplicationKey, clientKey: ncmbClientKey)
  }

  /// Routes `request` to the handler for its protocol; never throws.
  ///
  /// Browser clients are allowed in: an `OPTIONS` preflight gets `204` with permissive
  /// CORS fields, and every answer carries `Access-Control-Allow-Origin: *` (as the
  /// Firebase Auth Emulator does), so the vendors' JavaScript SDKs can use the emulator.
  ///
  /// The web page, the emulator-only endpoints and admin calls (`Bearer owner`) are the
  /// exception: they answer only loopback `Host`s, else `403`, and carry no CORS fields
  /// (``LoopbackGuard``).
  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let start = ContinuousClock.now
    var response = HTTPResponse(status: 500)
    if let logger {
      let logged = try? await LoggingMiddleware(logger: logger).intercept(request) {
        await route($0)
      }
      response = logged ?? response
    } else {
      response = await route(request)
    }
    logRequest(request, response, since: start)
    return response
  }

  private func route(_ request: HTTPRequest) async -> HTTPResponse {
    let guarded = LoopbackGuard.isGuarded(request)
    if guarded, let reason = LoopbackGuard.refusal(request) {
      return LoopbackGuard.forbidden(reason)
    }
    // A path naming another project is a 404 before any work (``ProjectScope``).
    if request.method != .options,
      var refusal = ProjectScope.refusal(request, projectID: firebase.projectID)
    {
      if !guarded { refusal.headerFields["Access-Control-Allow-Origin"] = "*" }
      return refusal
    }
    if request.method == .options, !guarded { return Self.preflight(request) }
    // One hop off the cooperative pool for a file store (its statements may wait for
    // another process's lock): the page, admin calls and the protocol handlers alike.
    var response = await store.waitingOffPool { [self] in answer(request, guarded: guarded) }
    if !guarded { response.headerFields["Access-Control-Allow-Origin"] = "*" }
    return response
  }

  /// The answer of the page and admin calls, or of the protocol handler for `request`, on
  /// the calling thread.
  private func answer(_ request: HTTPRequest, guarded: Bool) -> HTTPResponse {
    if guarded, let answer = adminAnswer(request) { return answer }
    if request.method == .options { return HTTPResponse(status: 204) }
    return NCMBHandler.handles(request)
      ? ncmb.answer(request)
      : FirestoreHandler.handles(request) ? firestore.answer(request) : firebase.answer(request)
  }

  /// The answer to a CORS preflight: any origin, the usual methods, the requested headers.
  static func preflight(_ request: HTTPRequest) -> HTTPResponse {
    var fields: HTTPFields = [
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "Access-Control-Max-Age": "600",
    ]
    if let requested = request.headerFields["Access-Control-Request-Headers"] {
      fields["Access-Control-Allow-Headers"] = requested
    }
    return HTTPResponse(status: 204, headerFields: fields)
  }
}

/// An ``BackendHTTP/HTTPTransport`` that hands requests straight to a
/// ``BackendEmulator`` in-process: no socket, no serialisation. Plug it into an adapter
/// to run it against the emulator in tests.
public struct EmulatorTransport: HTTPTransport {
  /// The emulator answering.
  public let emulator: BackendEmulator

  /// A transport over `emulator`.
  public init(_ emulator: BackendEmulator) { self.emulator = emulator }

  /// The emulator's response; throws only `CancellationError` when the task is cancelled
  /// before the request is handled.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    return await emulator.handle(request)
  }
}

extension EmulatorServer {
  /// A server for `emulator`.
  ///
  /// - Parameters:
  ///   - host: the listen address (default loopback only).
  ///   - port: `0...65535`; `0` picks a free port (default 9099, the Auth Emulator's).
  ///   - limits: size limits and timeouts.
  ///   - notices: receives a line for each connection closed without an answer, such as
  ///     a TLS handshake on the plain-HTTP port (`nil`, the default, drops them).
  ///
  /// Request bodies are limited per protocol (``BackendEmulator/bodyLimit(for:)``: 10 MiB
  /// for the Google APIs, 16 MiB for NCMB, refused in each protocol's error envelope),
  /// not by `limits.maxBodyBytes`.
  public convenience init(
    emulator: BackendEmulator, host: String = "127.0.0.1", port: Int = 9099,
    limits: Limits = Limits(), notices: NoticeHandler? = nil
  ) {
    self.init(
      host: host, port: port, limits: limits, notices: notices,
      bodyLimit: BackendEmulator.bodyLimit(for:)
    ) { request in
      await emulator.handle(request)
    }
  }
}
