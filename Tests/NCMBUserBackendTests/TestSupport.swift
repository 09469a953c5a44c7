import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import UserBackendKit

/// Fixed keys, clock and answers shared by the tests (constants only; no shared state).
enum Fixture {
  static let applicationKey = "app-key-0123456789abcdef"
  static let clientKey = "client-key-SECRET-fedcba9876543210"
  static let sessionToken = "session-token-SECRET-iXDIelJRY3ULBdms"
  static let password = "pa ss&w:rd!+é"
  /// 2026-01-01T00:00:00.000Z
  static let now = Date(timeIntervalSince1970: 1_767_225_600)
  static let timestamp = "2026-01-01T00:00:00.000Z"
  static let uuid = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!

  static func configuration(
    baseURL: URL = NCMBConfiguration.defaultBaseURL, legacyGETLogin: Bool = false,
    validatesResponseSignature: Bool = false, appleClientID: String? = nil
  ) -> NCMBConfiguration {
    NCMBConfiguration(
      applicationKey: applicationKey, clientKey: clientKey, baseURL: baseURL,
      legacyGETLogin: legacyGETLogin, validatesResponseSignature: validatesResponseSignature,
      appleClientID: appleClientID)
  }

  static func backend(
    _ transport: StubTransport, store: any SessionStore = InMemorySessionStore(),
    configuration: NCMBConfiguration = configuration()
  ) throws -> NCMBUserBackend {
    try NCMBUserBackend(
      configuration: configuration, transport: transport, sessionStore: store,
      clock: ManualClock(now), makeUUID: { uuid })
  }

  /// A login answer for `alice`.
  static let loginJSON = """
    {"objectId":"epaKcaYZqsREdSMY","userName":"alice","mailAddress":null,\
    "sessionToken":"\(sessionToken)","createDate":"2013-08-28T11:27:16.446Z",\
    "updateDate":"2013-08-28T11:27:16.446Z","authData":null,"mailAddressConfirm":false}
    """

  /// A store that already holds a signed-in `alice`.
  static func signedInStore() -> InMemorySessionStore {
    InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(id: "epaKcaYZqsREdSMY", username: "alice", providers: ["password"]),
          bearerToken: sessionToken, refreshToken: nil, expiresAt: nil, isNewUser: false)))
  }

  /// An HTTP response with a JSON body.
  static func response(_ status: Int, _ json: String, headers: HTTPFields = [:])
    -> StubTransport.Outcome
  {
    .response(HTTPResponse(status: status, headerFields: headers, body: Data(json.utf8)))
  }

  /// Base64(HMAC-SHA256(client key, text)), computed here independently of
  /// `NCMBSignature`'s string building.
  static func hmac(_ text: String, key: String = clientKey) -> String {
    Crypto.hmacSHA256(key: Data(key.utf8), message: Data(text.utf8)).base64EncodedString()
  }

  /// The four fixed parameters for the fixture keys and timestamp.
  static let fixedParams =
    "SignatureMethod=HmacSHA256&SignatureVersion=2&X-NCMB-Application-Key=\(applicationKey)"
    + "&X-NCMB-Timestamp=\(timestamp)"
}
