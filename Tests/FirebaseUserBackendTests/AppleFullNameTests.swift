import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Issue 21 item 8 on Firebase: Apple's one-time full name goes out as Apple's `user`
/// parameter in `postBody`; the authorization code is not sent.
@Suite("Firebase Sign in with Apple: full name", .timeLimit(.minutes(1)))
struct AppleFullNameTests {
  @Test("postBody carries user={\"name\":{…}} and never the authorization code")
  func fullNameSent() async throws {
    let transport = StubTransport { _ in
      StubTransport.json(
        200,
        #"{"localId":"uid-1","providerId":"apple.com","displayName":"Ada Lovelace","#
          + #""idToken":"\#(Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600)))","#
          + #""refreshToken":"r1","expiresIn":"3600","isNewUser":true}"#)
    }
    let backend = try Fixture.backend(transport)
    var name = PersonNameComponents()
    name.givenName = "Ada"
    name.familyName = "Lovelace"
    let session = try await backend.signIn(
      with: IdentityProviderCredential(
        provider: "apple.com", idToken: "eyJh.eyJz.sig", rawNonce: "n",
        authorizationCode: "AUTHCODE-SECRET", fullName: name))
    let body = try #require(transport.requests.first?.body)
    let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    let postBody = try #require(object["postBody"] as? String)
    let pairs = Dictionary(
      FormURLEncoding.pairs(postBody, plusIsSpace: true), uniquingKeysWith: { first, _ in first })
    let user = try #require(pairs["user"])
    let decoded = try JSONSerialization.jsonObject(with: Data(user.utf8)) as? [String: Any]
    let parts = decoded?["name"] as? [String: String]
    #expect(parts == ["firstName": "Ada", "lastName": "Lovelace"])
    #expect(!String(decoding: body, as: UTF8.self).contains("AUTHCODE"))
    #expect(session.user.displayName == "Ada Lovelace")
  }

  @Test("no full name, no user parameter")
  func noFullName() throws {
    let request = SignInWithIdpRequest(provider: "apple.com", idToken: "t", rawNonce: nil)
    #expect(!request.postBody.contains("user="))
  }
}
