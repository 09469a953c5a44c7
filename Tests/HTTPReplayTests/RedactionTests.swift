import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

@Suite("Redaction", .timeLimit(.minutes(2)))
struct RedactionTests {
  @Test("a token from a response gets the same alias in the next request")
  func tokenChain() async throws {
    let recorder = RecordingTransport(
      wrapping: Fixture.firebaseLike(), backend: "firebase", contract: "refresh",
      rules: .firebase, secrets: [Fixture.apiKey, Fixture.password, Fixture.refreshToken],
      clock: Fixture.clock, seed: 7)
    let signUp = try await recorder.send(
      Fixture.signUp(key: Fixture.apiKey, password: Fixture.password))
    let token = try #require(Fixture.jsonObject(signUp.body)["refreshToken"] as? String)
    #expect(token == Fixture.refreshToken)  // the caller sees the live response
    _ = try await recorder.send(Fixture.refresh(key: Fixture.apiKey, refreshToken: token))

    let cassette = try recorder.cassette(variables: ["password": Fixture.password])
    let interactions = try cassette.interactions()
    #expect(interactions.count == 2)
    let response = Fixture.jsonObject(interactions[0].response.body)
    #expect(response["refreshToken"] as? String == "<REFRESH_TOKEN_1>")
    let form = String(decoding: interactions[1].request.body, as: UTF8.self)
    #expect(form.contains("refresh_token=%3CREFRESH_TOKEN_1%3E"))
    #expect(
      Fixture.jsonObject(interactions[1].response.body)["refresh_token"] as? String
        == "<REFRESH_TOKEN_1>")
    // The API key is aliased identically in both URLs and in HAR's queryString copy.
    for entry in cassette.entries {
      #expect(entry.request.url.contains("key=%3CFIREBASE_API_KEY_1%3E"))
      #expect(entry.request.queryString.first { $0.name == "key" }?.value == "<FIREBASE_API_KEY_1>")
    }
    #expect(cassette.variables["password"] == "<PASSWORD_1>")
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    #expect(!text.contains(Fixture.refreshToken))
    #expect(!text.contains(Fixture.apiKey))
    #expect(!text.contains(Fixture.password))
  }

  @Test("a JWT becomes an unsigned JWT with the same claim names, consistently")
  func jwtReplacement() throws {
    let shift: TimeInterval = 86_400
    let redactor = Redactor(rules: .firebase, timeShift: shift)
    let original = Fixture.signedIDToken()
    let response = HTTPResponse(
      status: 200, headerFields: ["Content-Type": "application/json"],
      body: Fixture.json(["idToken": original]))
    let first = Fixture.jsonObject(redactor.redact(response).body)["idToken"] as? String
    let again = Fixture.jsonObject(redactor.redact(response).body)["idToken"] as? String
    let replaced = try #require(first)
    #expect(replaced == again)
    #expect(replaced != original)

    let before = try JSONWebToken(parsing: original)
    let after = try JSONWebToken(parsing: replaced)
    #expect(after.signature.isEmpty)
    let header = Fixture.jsonObject(after.header)
    #expect(header["alg"] as? String == "none")
    let oldClaims = Fixture.jsonObject(before.payload)
    let newClaims = Fixture.jsonObject(after.payload)
    #expect(Set(newClaims.keys) == Set(oldClaims.keys))
    #expect(after.numericClaim("exp") == (before.numericClaim("exp") ?? 0) + shift)
    #expect(after.numericClaim("iat") == (before.numericClaim("iat") ?? 0) + shift)
    #expect(after.stringClaim("nonce") == "<NONCE_1>")
    #expect(after.stringClaim("email") == "alice@example.com")

    // The same token in a request header maps to the same replacement.
    let request = HTTPRequest(
      method: .get, url: Fixture.url("https://example.com/"),
      headerFields: ["Authorization": "Bearer \(original)"])
    #expect(redactor.redact(request).headerFields["Authorization"] == "Bearer \(replaced)")
  }

  @Test("redaction is idempotent, also for a fresh redactor (replay's live requests)")
  func idempotent() throws {
    let rules = RedactionRules.firebase.merged(with: .ncmb)
    let recordTime = Redactor(rules: rules)
    let live = HTTPRequest(
      method: .post,
      url: Fixture.url(
        "https://identitytoolkit.googleapis.com/v1/accounts:update?key=\(Fixture.apiKey)"),
      headerFields: [
        "Content-Type": "application/json", "Authorization": "Bearer \(Fixture.signedIDToken())",
        "X-NCMB-Apps-Session-Token": "ncmb-session-abcdef", "User-Agent": "x",
      ],
      body: Fixture.json([
        "idToken": Fixture.signedIDToken(), "password": "new password!",
        "profile": ["refreshToken": Fixture.refreshToken, "displayName": "Al"],
      ]))
    let once = recordTime.redact(live)
    #expect(recordTime.redact(once) == once)
    #expect(Redactor(rules: rules).redact(once) == once)
    #expect(once.headerFields["User-Agent"] == nil)
    #expect(once.headerFields["X-NCMB-Apps-Session-Token"] == "<NCMB_SESSION_TOKEN_1>")
    let body = Fixture.jsonObject(once.body)
    #expect(body["password"] as? String == "<PASSWORD_1>")
    #expect((body["profile"] as? [String: Any])?["refreshToken"] as? String == "<REFRESH_TOKEN_1>")
    #expect((body["profile"] as? [String: Any])?["displayName"] as? String == "Al")
  }

  @Test("response headers are kept only from the allow-list")
  func responseHeaderAllowList() {
    let response = HTTPResponse(
      status: 302,
      headerFields: [
        "Content-Type": "application/json", "Set-Cookie": "sid=secret", "Date": "today",
        "Location": "https://example.com/next", "X-NCMB-Response-Signature": "sig",
      ])
    let kept = Redactor(rules: .ncmb).redact(response).headerFields.map(\.name)
    #expect(kept == ["Content-Type", "Location", "X-NCMB-Response-Signature"])
  }

  @Test("NCMB: application key aliased, signature constant, session token consistent")
  func ncmbHeaders() {
    let redactor = Redactor(rules: .ncmb)
    let login = HTTPResponse(
      status: 200, headerFields: ["Content-Type": "application/json"],
      body: Fixture.json(["sessionToken": "s3ss10n-t0ken-value", "objectId": "abc"]))
    let redactedLogin = Fixture.jsonObject(redactor.redact(login).body)
    let next = HTTPRequest(
      method: .get, url: Fixture.url("https://mbaas.api.nifcloud.com/2013-09-01/users/abc"),
      headerFields: [
        "X-NCMB-Application-Key": "app-key-value-1234", "X-NCMB-Signature": "c2lnbmF0dXJl",
        "X-NCMB-Timestamp": "2026-01-01T00:00:00.000Z",
        "X-NCMB-Apps-Session-Token": "s3ss10n-t0ken-value",
      ])
    let redacted = redactor.redact(next)
    #expect(redactedLogin["sessionToken"] as? String == "<NCMB_SESSION_TOKEN_1>")
    #expect(redacted.headerFields["X-NCMB-Apps-Session-Token"] == "<NCMB_SESSION_TOKEN_1>")
    #expect(redacted.headerFields["X-NCMB-Application-Key"] == "<NCMB_APPLICATION_KEY_1>")
    #expect(redacted.headerFields["X-NCMB-Signature"] == "<NCMB_SIGNATURE>")
    #expect(redacted.headerFields["X-NCMB-Timestamp"] == "2026-01-01T00:00:00.000Z")
  }
}
