import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// One row of the error table in `docs/wire/ncmb.md` §4 and its portable case for a
/// call made without a session token (sign-in).
struct ErrorRow: Sendable, CustomTestStringConvertible {
  var code: String
  var status: Int
  var message: String?
  var expected: UserBackendError.Code
  var testDescription: String { code }
}

private func server(_ status: Int, _ code: String, _ message: String?) -> UserBackendError.Code {
  .server(status: status, code: code, message: message)
}

let errorRows: [ErrorRow] = [
  ErrorRow(
    code: "E100001", status: 400,
    message: "Authentication error by response signature incorrect.",
    expected: .malformedResponse(reason: "the response signature does not match")),
  ErrorRow(
    code: "E400000", status: 400, message: "Bad Request.",
    expected: server(400, "E400000", "Bad Request.")),
  ErrorRow(
    code: "E400001", status: 400, message: "JSON is invalid format.",
    expected: server(400, "E400001", "JSON is invalid format.")),
  ErrorRow(
    code: "E400002", status: 400, message: "userName is invalid.",
    expected: .invalidInput(field: "userName", reason: "userName is invalid.")),
  ErrorRow(
    code: "E400003", status: 400, message: "password is empty.",
    expected: .invalidInput(field: "password", reason: "must not be empty")),
  ErrorRow(
    code: "E400004", status: 400, message: "mailAddress is invalid format.",
    expected: .invalidEmail),
  ErrorRow(
    code: "E400005", status: 400, message: "acl is not a valid value.",
    expected: .invalidInput(field: "acl", reason: "acl is not a valid value.")),
  ErrorRow(
    code: "E400006", status: 400, message: "mailAddress does not exist.",
    expected: .invalidInput(field: "mailAddress", reason: "mailAddress does not exist.")),
  ErrorRow(
    code: "E400007", status: 400, message: "userName is invalid format[lineNo:3].",
    expected: .invalidInput(field: "userName", reason: "userName is invalid format[lineNo:3].")),
  ErrorRow(
    code: "E400008", status: 400, message: "Either userName or mailAddress.",
    expected: .invalidInput(field: "userName", reason: "Either userName or mailAddress.")),
  ErrorRow(
    code: "E400009", status: 400, message: "password size must be between 6 and 64.",
    expected: .invalidInput(
      field: "password", reason: "password size must be between 6 and 64.")),
  ErrorRow(
    code: "E401000", status: 401, message: "Unauthorized.",
    expected: server(401, "E401000", "Unauthorized.")),
  ErrorRow(
    code: "E401001", status: 401, message: "Authentication error by header incorrect.",
    expected: server(401, "E401001", "Authentication error by header incorrect.")),
  ErrorRow(
    code: "E401002", status: 401, message: "Authentication error with ID/PASS incorrect.",
    expected: .invalidCredentials),
  ErrorRow(
    code: "E401003", status: 401, message: "OAuth apple authentication error.",
    expected: .invalidCredentials),
  ErrorRow(
    code: "E401004", status: 401, message: "No settlement for a free plan.",
    expected: server(401, "E401004", "No settlement for a free plan.")),
  ErrorRow(
    code: "E403000", status: 403, message: "Forbidden.",
    expected: server(403, "E403000", "Forbidden.")),
  ErrorRow(
    code: "E403001", status: 403, message: "No access with ACL.",
    expected: .permissionDenied),
  ErrorRow(
    code: "E403002", status: 403, message: "Unauthorized operations for signature.",
    expected: .misconfigured(
      setting: "clientKey",
      reason: "the server rejected the request signature (check the client key)")),
  ErrorRow(
    code: "E403003", status: 403, message: "Operation that are prohibited.",
    expected: .permissionDenied),
  ErrorRow(
    code: "E403004", status: 403, message: "One-Time-Token expired.",
    expected: server(403, "E403004", "One-Time-Token expired.")),
  ErrorRow(
    code: "E403005", status: 403, message: "apple must not be entered.",
    expected: .unsupported(capability: .identityProviderSignIn)),
  ErrorRow(
    code: "E403005", status: 403, message: "anonymous must not be entered.",
    expected: .unsupported(capability: .anonymousSignIn)),
  ErrorRow(
    code: "E403005", status: 403, message: "sessionToken must not be entered.",
    expected: .invalidInput(
      field: "sessionToken", reason: "sessionToken must not be entered.")),
  ErrorRow(
    code: "E403006", status: 403, message: "Invalid GeoPoint value.",
    expected: server(403, "E403006", "Invalid GeoPoint value.")),
  ErrorRow(
    code: "E404001", status: 404, message: "No data available.",
    expected: server(404, "E404001", "No data available.")),
  ErrorRow(
    code: "E404002", status: 404, message: "None service.",
    expected: server(404, "E404002", "None service.")),
  ErrorRow(
    code: "E404003", status: 404, message: "None field.",
    expected: server(404, "E404003", "None field.")),
  ErrorRow(
    code: "E404004", status: 404, message: "None device token.",
    expected: server(404, "E404004", "None device token.")),
  ErrorRow(
    code: "E404005", status: 404, message: "No such application.",
    expected: .misconfigured(
      setting: "applicationKey", reason: "the server does not know this application key")),
  ErrorRow(
    code: "E404006", status: 404, message: "No such user.",
    expected: server(404, "E404006", "No such user.")),
  ErrorRow(
    code: "E405001", status: 405, message: "Method not allowed.",
    expected: server(405, "E405001", "Method not allowed.")),
  ErrorRow(code: "E405002", status: 405, message: nil, expected: server(405, "E405002", nil)),
  ErrorRow(
    code: "E409001", status: 409, message: "userName is duplication.",
    expected: .accountAlreadyExists),
  ErrorRow(
    code: "E413001", status: 413, message: "File size Limit error.",
    expected: server(413, "E413001", "File size Limit error.")),
  ErrorRow(
    code: "E413002", status: 413, message: "Request entity too large.",
    expected: server(413, "E413002", "Request entity too large.")),
  ErrorRow(
    code: "E413003", status: 413, message: "Requests thread Limit error.",
    expected: server(413, "E413003", "Requests thread Limit error.")),
  ErrorRow(code: "E414000", status: 414, message: nil, expected: server(414, "E414000", nil)),
  ErrorRow(
    code: "E415001", status: 415, message: "Unsupported media type.",
    expected: server(415, "E415001", "Unsupported media type.")),
  ErrorRow(
    code: "E429001", status: 429, message: "API calls have passed their limit.",
    expected: .rateLimited(retryAfter: nil)),
  ErrorRow(code: "E429002", status: 429, message: nil, expected: .rateLimited(retryAfter: nil)),
  ErrorRow(
    code: "E500001", status: 500, message: "System error.",
    expected: server(500, "E500001", "System error.")),
  ErrorRow(
    code: "E502001", status: 502, message: "Storage error.",
    expected: server(502, "E502001", "Storage error.")),
  ErrorRow(
    code: "E502002", status: 502, message: "Mail failure.",
    expected: server(502, "E502002", "Mail failure.")),
  ErrorRow(code: "E503001", status: 503, message: nil, expected: server(503, "E503001", nil)),
  ErrorRow(
    code: "E999999", status: 418, message: "Something new.",
    expected: server(418, "E999999", "Something new.")),
]

private func errorJSON(_ row: ErrorRow) -> String {
  guard let message = row.message else { return #"{"code":"\#(row.code)"}"# }
  return #"{"code":"\#(row.code)","error":"\#(message)"}"#
}

@Suite("NCMB error mapping", .timeLimit(.minutes(2)))
struct NCMBErrorTests {
  @Test("every code in the error table maps to its portable case", arguments: errorRows)
  func mapping(_ row: ErrorRow) async throws {
    let transport = StubTransport([Fixture.response(row.status, errorJSON(row))])
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
    #expect(error.code == row.expected)
    #expect(error.backendCode?.rawValue == row.code)
    if let message = row.message { #expect(error.message == message) }
    #expect(try await store.load().session == nil)
  }

  @Test(
    "on a signed-in call E401001, E404001 and E404006 clear the session",
    arguments: ["E401001", "E404001", "E404006"])
  func sessionRejected(_ code: String) async throws {
    let status = Int(code.dropFirst().prefix(3)) ?? 0
    let transport = StubTransport([
      Fixture.response(status, #"{"code":"\#(code)","error":"rejected."}"#)
    ])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    var changes = backend.authStateChanges.makeAsyncIterator()
    #expect(await changes.next()?.event == .initialState)

    let error = try await #require(throws: UserBackendError.self) {
      try await backend.idToken(forceRefresh: true)
    }
    #expect(error.code == .sessionExpired)
    #expect(error.backendCode?.rawValue == code)
    #expect(try await store.load().session == nil)
    #expect(try await backend.currentUser() == nil)
    #expect(await changes.next() == AuthStateChange(.sessionRevoked, user: nil))
  }

  @Test("E429 with Retry-After carries the delay")
  func retryAfter() async throws {
    let transport = StubTransport([
      Fixture.response(
        429, #"{"code":"E429001","error":"API calls have passed their limit."}"#,
        headers: ["Retry-After": "30"])
    ])
    let backend = try Fixture.backend(transport)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
    #expect(error.code == .rateLimited(retryAfter: 30))
  }

  @Test(
    "bodies that are not NCMB JSON are malformed responses",
    arguments: [
      (401, #"{"code":"E4010"#), (400, #"{"error":"no code"}"#),
      (200, #"{"objectId":"x","sessionTo"#),
      (200, #"{"userName":"alice","sessionToken":"t"}"#), (200, #"{"objectId":"x"}"#),
      (200, #"{"objectId":7,"sessionToken":"t"}"#),
    ])
  func malformed(_ status: Int, _ body: String) async throws {
    let transport = StubTransport([Fixture.response(status, body)])
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
    #expect(error.code.name == "malformedResponse")
    #expect(try await store.load().session == nil)
  }

  @Test(
    "a gateway's 429 or 5xx without an NCMB body keeps its meaning",
    arguments: [
      (429, "", "rateLimited"), (500, "<html>Bad Gateway</html>", "server"),
      (503, "", "server"),
    ])
  func gatewayStatus(_ status: Int, _ body: String, _ expected: String) async throws {
    let transport = StubTransport([Fixture.response(status, body)])
    let backend = try Fixture.backend(transport)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
    #expect(error.code.name == expected)
  }

  @Test("transport failures are network errors and keep the session")
  func network() async throws {
    let transport = StubTransport([.failure(.timedOut)])
    let store = Fixture.signedInStore()
    let backend = try Fixture.backend(transport, store: store)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.reload()
    }
    #expect(error.code == .network(reason: "the request timed out"))
    #expect(try await store.load().session?.bearerToken == Fixture.sessionToken)
  }
}
