import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite("NCMBSignature.validate / verify", .timeLimit(.minutes(2)))
struct NCMBSignatureVerificationTests {
  /// A request signed over `signedURL` / `fqdn`, then received at `receivedURL`.
  func received(
    method: HTTPMethod = .get, signedURL: String, receivedURL: String? = nil,
    fqdn: String? = nil
  ) throws -> HTTPRequest {
    let signed = HTTPRequest(method: method, url: try #require(URL(string: signedURL)))
    let signature = NCMBSignature.sign(
      request: signed, applicationKey: Fixture.applicationKey, clientKey: Fixture.clientKey,
      timestamp: Fixture.timestamp, fqdn: fqdn)
    return HTTPRequest(
      method: method, url: try #require(URL(string: receivedURL ?? signedURL)),
      headerFields: [
        "X-NCMB-Application-Key": Fixture.applicationKey,
        "X-NCMB-Timestamp": Fixture.timestamp,
        "X-NCMB-Signature": signature,
      ])
  }

  @Test(
    "a trailing slash is accepted either way",
    arguments: [
      ("https://h.example/2013-09-01/users", "https://h.example/2013-09-01/users/"),
      ("https://h.example/2013-09-01/users/", "https://h.example/2013-09-01/users"),
      ("https://h.example/2013-09-01/users", "https://h.example/2013-09-01/users"),
    ])
  func trailingSlash(_ signedURL: String, _ receivedURL: String) throws {
    let request = try received(signedURL: signedURL, receivedURL: receivedURL)
    #expect(NCMBSignature.verify(request: request, clientKey: Fixture.clientKey))
  }

  @Test("a different path is rejected")
  func differentPath() throws {
    let request = try received(
      signedURL: "https://h.example/2013-09-01/users",
      receivedURL: "https://h.example/2013-09-01/login")
    #expect(throws: NCMBSignatureFailure.signatureMismatch) {
      try NCMBSignature.validate(request: request, clientKey: Fixture.clientKey)
    }
  }

  @Test("by default the request's host and the canonical FQDN are accepted")
  func defaultHosts() throws {
    let overHost = try received(signedURL: "http://127.0.0.1:9099/2013-09-01/users")
    let overCanonical = try received(
      signedURL: "http://127.0.0.1:9099/2013-09-01/users", fqdn: "mbaas.api.nifcloud.com")
    let overOther = try received(
      signedURL: "http://127.0.0.1:9099/2013-09-01/users", fqdn: "evil.example")
    #expect(NCMBSignature.verify(request: overHost, clientKey: Fixture.clientKey))
    #expect(NCMBSignature.verify(request: overCanonical, clientKey: Fixture.clientKey))
    #expect(!NCMBSignature.verify(request: overOther, clientKey: Fixture.clientKey))
    #expect(
      !NCMBSignature.verify(
        request: overHost, clientKey: Fixture.clientKey, acceptedHosts: ["mbaas.api.nifcloud.com"]))
    #expect(
      NCMBSignature.verify(
        request: overOther, clientKey: Fixture.clientKey, acceptedHosts: ["evil.example"]))
  }

  @Test("the raw query as received is what is checked")
  func rawQuery() throws {
    // The Swift SDK leaves ':' unencoded; the raw form must verify as sent, and a
    // re-encoded form of the same value must not.
    let raw = "https://h.example/2013-09-01/users?where=%7B%22k%22:%22v%22%7D"
    let reencoded = "https://h.example/2013-09-01/users?where=%7B%22k%22%3A%22v%22%7D"
    #expect(
      NCMBSignature.verify(request: try received(signedURL: raw), clientKey: Fixture.clientKey))
    #expect(
      !NCMBSignature.verify(
        request: try received(signedURL: raw, receivedURL: reencoded), clientKey: Fixture.clientKey)
    )
    #expect(
      !NCMBSignature.verify(
        request: try received(signedURL: raw, receivedURL: raw + "&limit=1"),
        clientKey: Fixture.clientKey))
  }

  @Test("a POST's query may change without breaking the signature")
  func postQueryIgnored() throws {
    let request = try received(
      method: .post, signedURL: "https://h.example/2013-09-01/users",
      receivedURL: "https://h.example/2013-09-01/users?extra=1")
    #expect(NCMBSignature.verify(request: request, clientKey: Fixture.clientKey))
  }

  @Test("missing headers and a foreign application key are named")
  func failures() throws {
    let request = try received(signedURL: "https://h.example/2013-09-01/users")
    for name in ["X-NCMB-Application-Key", "X-NCMB-Timestamp", "X-NCMB-Signature"] {
      var stripped = request
      stripped.headerFields[name] = nil
      #expect(throws: NCMBSignatureFailure.missingHeader(name)) {
        try NCMBSignature.validate(request: stripped, clientKey: Fixture.clientKey)
      }
    }
    #expect(throws: NCMBSignatureFailure.unknownApplicationKey) {
      try NCMBSignature.validate(
        request: request, clientKey: Fixture.clientKey, applicationKey: "another-app")
    }
    var stale = request
    stale.headerFields["X-NCMB-Timestamp"] = "2026-01-01T00:00:00.001Z"
    #expect(throws: NCMBSignatureFailure.signatureMismatch) {
      try NCMBSignature.validate(request: stale, clientKey: Fixture.clientKey)
    }
    let failure = NCMBSignatureFailure.signatureMismatch.description
    #expect(!failure.contains(Fixture.clientKey) && !failure.contains(Fixture.applicationKey))
  }

  @Test("requests built by the backend verify on the server side")
  func backendRequestsVerify() async throws {
    let transport = StubTransport([Fixture.response(200, Fixture.loginJSON)])
    let backend = try Fixture.backend(
      transport,
      configuration: Fixture.configuration(
        baseURL: URL(string: "http://127.0.0.1:9099")!, legacyGETLogin: true))
    _ = try await backend.signIn(.username("a b!&+:é", password: Fixture.password))
    let request = try #require(transport.requests.first)
    #expect(
      NCMBSignature.verify(
        request: request, clientKey: Fixture.clientKey, acceptedHosts: ["127.0.0.1"],
        applicationKey: Fixture.applicationKey))
  }
}
