import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Issue 21 item 8: NCMB's `authData.apple` carries Apple's authorization code as
/// `access_token` (the service redeems it with Apple), `id` the Apple user identifier and
/// `client_id` the bundle ID.
@Suite("NCMB Sign in with Apple: authData.apple shape", .timeLimit(.minutes(1)))
struct NCMBAppleAuthDataTests {
  static let answer = Fixture.response(
    201,
    #"{"objectId":"apl1","userName":"r4nd0m","sessionToken":"t2","#
      + #""authData":{"apple":{"id":"001234.abcd"}}}"#)

  func sentApple(_ credential: IdentityProviderCredential, appleClientID: String? = nil)
    async throws -> (apple: [String: Any], body: String, session: AuthSession)
  {
    let transport = StubTransport([Self.answer])
    let backend = try Fixture.backend(
      transport, configuration: Fixture.configuration(appleClientID: appleClientID))
    let session = try await backend.signIn(with: credential)
    let body = try #require(transport.requests.first?.body)
    let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    let apple = try #require((object["authData"] as? [String: Any])?["apple"] as? [String: Any])
    return (apple, String(decoding: body, as: UTF8.self), session)
  }

  @Test(
    "access_token is the authorization code, id the sub, client_id the bundle ID; no ID token",
    arguments: [(nil, "com.example.app"), ("com.example.override", "com.example.override")]
      as [(String?, String)])
  func shape(_ configured: String?, _ clientID: String) async throws {
    let idToken = JSONWebToken.unsigned(claims: ["sub": "001234.abcd", "aud": "com.example.app"])
    let sent = try await sentApple(
      IdentityProviderCredential(
        provider: "apple.com", idToken: idToken, rawNonce: nil,
        authorizationCode: "c9f3.0.nrwq.AUTHCODE"),
      appleClientID: configured)
    #expect(sent.apple["access_token"] as? String == "c9f3.0.nrwq.AUTHCODE")
    #expect(sent.apple["id"] as? String == "001234.abcd")
    #expect(sent.apple["client_id"] as? String == clientID)
    #expect(Set(sent.apple.keys) == ["access_token", "id", "client_id"])
    #expect(!sent.body.contains(idToken))
  }

  @Test("Apple's one-time full name becomes the user's display name")
  func fullName() async throws {
    var name = PersonNameComponents()
    name.givenName = "Ada"
    name.familyName = "Lovelace"
    let credential = IdentityProviderCredential(
      provider: "apple.com", idToken: JSONWebToken.unsigned(claims: ["sub": "001234.abcd"]),
      rawNonce: nil, authorizationCode: "code", fullName: name)
    let sent = try await sentApple(credential)
    #expect(sent.session.user.displayName == "Ada Lovelace")
    #expect(!credential.description.contains("Ada") && !credential.description.contains("code"))
  }

  @Test(
    "without an authorization code nothing is sent and the field is named",
    arguments: [nil, ""] as [String?])
  func missingCode(_ code: String?) async throws {
    let transport = StubTransport()
    let backend = try Fixture.backend(transport)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: JSONWebToken.unsigned(claims: ["sub": "s"]),
          rawNonce: nil, authorizationCode: code))
    }
    guard case .invalidInput(let field, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == "authorizationCode")
    #expect(transport.requests.isEmpty)
  }
}
