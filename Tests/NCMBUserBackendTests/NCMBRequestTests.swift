import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// One endpoint: what to call and the exact request it must produce.
struct EndpointCase: Sendable, CustomTestStringConvertible {
  var name: String
  var signedIn = false
  var legacyGETLogin = false
  var answer: (status: Int, json: String)
  var call: @Sendable (NCMBUserBackend) async throws -> Void
  var method: String
  var url: String
  /// The signed path and, for GET, the sorted query pairs after the fixed four.
  var path: String
  var signedQuery = ""
  var body: String
  /// Whether the request carries the session token (signed-in calls do, except login).
  var sendsSessionToken: Bool?
  var testDescription: String { name }
}

private let appleIDToken = JSONWebToken.unsigned(claims: [
  "iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": "001234.abcd",
  "nonce": Crypto.sha256Hex("raw-nonce"),
])

let endpointCases: [EndpointCase] = [
  EndpointCase(
    name: "sign-up with a user name", answer: (201, Fixture.loginJSON),
    call: { _ = try await $0.signUp(.username("alice", password: Fixture.password)) },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/users",
    path: "/2013-09-01/users",
    body: #"{"password":"pa ss&w:rd!+é","userName":"alice"}"#),
  EndpointCase(
    name: "sign-up with an email", answer: (201, Fixture.loginJSON),
    call: { _ = try await $0.signUp(.email(" Alice@Example.com ", password: Fixture.password)) },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/users",
    path: "/2013-09-01/users",
    body:
      #"{"mailAddress":"alice@example.com","password":"pa ss&w:rd!+é","userName":"alice@example.com"}"#
  ),
  EndpointCase(
    name: "sign-in (POST login)", answer: (200, Fixture.loginJSON),
    call: { _ = try await $0.signIn(.username("alice", password: Fixture.password)) },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/login",
    path: "/2013-09-01/login", body: #"{"password":"pa ss&w:rd!+é","userName":"alice"}"#),
  EndpointCase(
    name: "sign-in with an email (POST login)", answer: (200, Fixture.loginJSON),
    call: { _ = try await $0.signIn(.email("alice@example.com", password: "secret1")) },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/login",
    path: "/2013-09-01/login", body: #"{"password":"secret1","userName":"alice@example.com"}"#),
  EndpointCase(
    name: "sign-in (legacy GET login)", legacyGETLogin: true, answer: (200, Fixture.loginJSON),
    call: { _ = try await $0.signIn(.username("al ice", password: Fixture.password)) },
    method: "GET",
    url: "https://mbaas.api.nifcloud.com/2013-09-01/login"
      + "?userName=al%20ice&password=pa%20ss%26w%3Ard%21%2B%C3%A9",
    path: "/2013-09-01/login",
    signedQuery: "&password=pa%20ss%26w%3Ard%21%2B%C3%A9&userName=al%20ice", body: ""),
  EndpointCase(
    name: "sign-out (GET logout)", signedIn: true, answer: (200, "{}"),
    call: { try await $0.signOut() },
    method: "GET", url: "https://mbaas.api.nifcloud.com/2013-09-01/logout",
    path: "/2013-09-01/logout", body: ""),
  EndpointCase(
    name: "fetch (GET users/{objectId})", signedIn: true, answer: (200, Fixture.loginJSON),
    call: { _ = try await $0.reload() },
    method: "GET", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY", body: ""),
  EndpointCase(
    name: "update email (PUT users/{objectId} mailAddress)", signedIn: true,
    answer: (200, #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
    call: { _ = try await $0.updateEmail("Bob@Example.com") },
    method: "PUT", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY", body: #"{"mailAddress":"bob@example.com"}"#),
  EndpointCase(
    name: "update password (PUT users/{objectId} password)", signedIn: true,
    answer: (200, #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
    call: { try await $0.updatePassword("n3w-password") },
    method: "PUT", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY", body: #"{"password":"n3w-password"}"#),
  EndpointCase(
    name: "update profile: set (PUT users/{objectId} custom fields)", signedIn: true,
    answer: (200, #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
    call: {
      _ = try await $0.updateProfile(displayName: "Alice", photoURL: "https://e.example/a.png")
    },
    method: "PUT", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY",
    body: #"{"displayName":"Alice","photoURL":"https://e.example/a.png"}"#),
  EndpointCase(
    name: "update profile: remove (null)", signedIn: true,
    answer: (200, #"{"updateDate":"2026-01-01T00:00:00.000Z"}"#),
    call: { _ = try await $0.updateProfile(displayName: "", photoURL: "") },
    method: "PUT", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY", body: #"{"displayName":null,"photoURL":null}"#),
  EndpointCase(
    name: "reauthenticate (POST login)", signedIn: true, answer: (200, Fixture.loginJSON),
    call: { _ = try await $0.reauthenticate(.username("alice", password: Fixture.password)) },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/login",
    path: "/2013-09-01/login", body: #"{"password":"pa ss&w:rd!+é","userName":"alice"}"#,
    sendsSessionToken: false),
  EndpointCase(
    name: "delete (DELETE users/{objectId})", signedIn: true, answer: (200, ""),
    call: { try await $0.deleteAccount() },
    method: "DELETE", url: "https://mbaas.api.nifcloud.com/2013-09-01/users/epaKcaYZqsREdSMY",
    path: "/2013-09-01/users/epaKcaYZqsREdSMY", body: ""),
  EndpointCase(
    name: "password reset (POST requestPasswordReset)",
    answer: (201, #"{"createDate":"2026-01-01T00:00:00.000Z"}"#),
    call: { try await $0.sendPasswordReset(email: "Alice@Example.com") },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/requestPasswordReset",
    path: "/2013-09-01/requestPasswordReset", body: #"{"mailAddress":"alice@example.com"}"#),
  EndpointCase(
    name: "anonymous sign-in (POST users authData.anonymous)",
    answer: (
      201,
      #"{"objectId":"anon1","userName":"ljmuJgf4ri","sessionToken":"t1","#
        + #""authData":{"anonymous":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}}}"#
    ),
    call: { _ = try await $0.signInAnonymously() },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/users",
    path: "/2013-09-01/users",
    body: #"{"authData":{"anonymous":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}}}"#),
  EndpointCase(
    name: "Sign in with Apple (POST users authData.apple)",
    answer: (
      201,
      #"{"objectId":"apl1","userName":"x","sessionToken":"t2","#
        + #""authData":{"apple":{"id":"001234.abcd"}}}"#
    ),
    call: {
      _ = try await $0.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: appleIDToken, rawNonce: "raw-nonce",
          authorizationCode: "c0ffee.0.mrtq.AUTHCODE"))
    },
    method: "POST", url: "https://mbaas.api.nifcloud.com/2013-09-01/users",
    path: "/2013-09-01/users",
    // access_token is Apple's authorization code (the service redeems it), not the ID token.
    body:
      #"{"authData":{"apple":{"access_token":"c0ffee.0.mrtq.AUTHCODE","client_id":"com.example.app","#
      + #""id":"001234.abcd"}}}"#),
]

@Suite("NCMB requests on the wire", .timeLimit(.minutes(2)))
struct NCMBRequestTests {
  @Test("each endpoint sends the exact request", arguments: endpointCases)
  func exactRequest(_ endpoint: EndpointCase) async throws {
    let transport = StubTransport([Fixture.response(endpoint.answer.status, endpoint.answer.json)])
    let store = endpoint.signedIn ? Fixture.signedInStore() : InMemorySessionStore()
    let backend = try Fixture.backend(
      transport, store: store,
      configuration: Fixture.configuration(legacyGETLogin: endpoint.legacyGETLogin))
    try await endpoint.call(backend)

    let request = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    #expect(request.method.rawValue == endpoint.method)
    #expect(request.url.absoluteString == endpoint.url)
    #expect(String(decoding: request.body, as: UTF8.self) == endpoint.body)
    #expect(request.timeout == 10)

    let signedText =
      "\(endpoint.method)\nmbaas.api.nifcloud.com\n\(endpoint.path)\n" + Fixture.fixedParams
      + endpoint.signedQuery
    var expected: [HTTPFields.Field] = [
      .init(name: "X-NCMB-Application-Key", value: Fixture.applicationKey),
      .init(name: "X-NCMB-Timestamp", value: "2026-01-01T00:00:00.000Z"),
      .init(name: "X-NCMB-Signature", value: Fixture.hmac(signedText)),
    ]
    if endpoint.sendsSessionToken ?? endpoint.signedIn {
      expected.append(.init(name: "X-NCMB-Apps-Session-Token", value: Fixture.sessionToken))
    }
    expected.append(.init(name: "Content-Type", value: "application/json"))
    #expect(request.headerFields.fields == expected)
  }

  @Test("a base URL with a port and a path prefix; the FQDN is its host")
  func baseURLWithPortAndPrefix() async throws {
    let transport = StubTransport([Fixture.response(201, Fixture.loginJSON)])
    let backend = try Fixture.backend(
      transport,
      configuration: Fixture.configuration(baseURL: URL(string: "http://127.0.0.1:9099/ncmb/")!))
    _ = try await backend.signUp(.username("alice", password: "secret1"))
    let request = try #require(transport.requests.first)
    #expect(request.url.absoluteString == "http://127.0.0.1:9099/ncmb/2013-09-01/users")
    #expect(
      request.headerFields["X-NCMB-Signature"]
        == Fixture.hmac("POST\n127.0.0.1\n/ncmb/2013-09-01/users\n" + Fixture.fixedParams))
  }

  @Test("a stored objectId with characters no objectId has is refused before any request")
  func unusableStoredObjectID() async throws {
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          // Not an ID the service issues (ASCII letters, digits, - and _ only).
          user: User(id: "a b+c", providers: ["password"]), bearerToken: Fixture.sessionToken,
          refreshToken: nil, expiresAt: nil, isNewUser: false)))
    let transport = StubTransport([Fixture.response(200, #"{"objectId":"a b+c"}"#)])
    let backend = try Fixture.backend(transport, store: store)
    let error = await #expect(throws: UserBackendError.self) { _ = try await backend.reload() }
    guard case .invalidInput(let field, _) = error?.code else {
      Issue.record("expected invalidInput, got \(String(describing: error))")
      return
    }
    #expect(field == "userID")
    #expect(transport.requests.isEmpty)
  }

  @Test("the timestamp follows the injected clock")
  func timestampFromClock() async throws {
    let clock = ManualClock(Fixture.now)
    let transport = StubTransport([
      Fixture.response(200, Fixture.loginJSON), Fixture.response(200, Fixture.loginJSON),
    ])
    let backend = try NCMBUserBackend(
      configuration: Fixture.configuration(), transport: transport,
      sessionStore: InMemorySessionStore(), clock: clock)
    _ = try await backend.signIn(.username("alice", password: "secret1"))
    clock.advance(by: 13 * 3600 + 0.25)
    _ = try await backend.signIn(.username("alice", password: "secret1"))
    #expect(
      transport.requests.map { $0.headerFields["X-NCMB-Timestamp"] } == [
        "2026-01-01T00:00:00.000Z", "2026-01-01T13:00:00.250Z",
      ])
  }
}
