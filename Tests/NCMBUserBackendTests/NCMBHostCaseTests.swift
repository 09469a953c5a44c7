import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import Testing
import UserBackendKit

/// The service signs its own host name in lower case; a signature over the name as the
/// user typed it (`MBAAS.api.nifcloud.com`) would never match. The configuration, the
/// signer's default and the verifier's default all use the lower-case name.
@Suite("NCMB signatures use the lower-case host", .timeLimit(.minutes(1)))
struct NCMBHostCaseTests {
  static let upper = URL(string: "https://MBAAS.Api.NIFCLOUD.com")!

  @Test func configurationFQDNIsLowerCase() {
    #expect(Fixture.configuration(baseURL: Self.upper).fqdn == "mbaas.api.nifcloud.com")
  }

  @Test("the adapter's request is signed over the lower-case host")
  func adapterSignsLowerCase() async throws {
    let server = StubTransport([Fixture.response(200, Fixture.loginJSON)])
    let backend = try Fixture.backend(
      server, configuration: Fixture.configuration(baseURL: Self.upper))
    _ = try await backend.signIn(.username("alice", password: Fixture.password))
    let request = try #require(server.requests.first)
    #expect(
      NCMBSignature.verify(
        request: request, clientKey: Fixture.clientKey, acceptedHosts: ["mbaas.api.nifcloud.com"]))
    #expect(
      !NCMBSignature.verify(
        request: request, clientKey: Fixture.clientKey, acceptedHosts: ["MBAAS.Api.NIFCLOUD.com"]))
  }

  @Test("sign(fqdn: nil) and validate(acceptedHosts: nil) lower-case the URL's host")
  func defaultsLowerCase() throws {
    let url = Self.upper.appendingPathComponent("2013-09-01/users")
    let lower = URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/users")!
    func sign(_ url: URL) -> String {
      NCMBSignature.sign(
        request: HTTPRequest(method: .post, url: url), applicationKey: Fixture.applicationKey,
        clientKey: Fixture.clientKey, timestamp: Fixture.timestamp)
    }
    #expect(sign(url) == sign(lower))
    var request = HTTPRequest(method: .post, url: url)
    request.headerFields["X-NCMB-Application-Key"] = Fixture.applicationKey
    request.headerFields["X-NCMB-Timestamp"] = Fixture.timestamp
    request.headerFields["X-NCMB-Signature"] = sign(lower)
    #expect(NCMBSignature.verify(request: request, clientKey: Fixture.clientKey))
  }
}
