import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendKit

@Suite("Redaction of server-sent JWT time claims never traps", .timeLimit(.minutes(2)))
struct RedactionNumberTests {
  @Test(
    "a time claim too large for Int is kept as sent; a normal one is shifted",
    arguments: [1e300, 9.3e18, -1e300])
  func hugeClaim(_ huge: Double) throws {
    let claims: [String: Any] = [
      "sub": "uid-1", "exp": huge, "iat": 1_767_225_600, "aud": "demo",
    ]
    let signed =
      JSONWebToken.unsigned(claims: claims, header: ["alg": "RS256", "typ": "JWT"])
      + "c2lnbmF0dXJlLWJ5dGVzLWhlcmU"
    let response = HTTPResponse(
      status: 200, headerFields: ["Content-Type": "application/json"],
      body: Fixture.json(["idToken": signed]))
    let redacted = Redactor(rules: .firebase, timeShift: 60).redact(response)
    let token = try #require(Fixture.jsonObject(redacted.body)["idToken"] as? String)
    let payload = Fixture.jsonObject(try JSONWebToken(parsing: token).payload)
    #expect((payload["exp"] as? NSNumber)?.doubleValue == huge)
    #expect((payload["iat"] as? NSNumber)?.intValue == 1_767_225_660)
  }
}
