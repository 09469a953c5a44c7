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

/// NCMB signs the base URL's host; libcurl sends an IP address in its standard form, so a
/// base URL that writes one otherwise would only give signature errors: refused up front.
@Suite("NCMB base URL: IP addresses in their standard form", .timeLimit(.minutes(1)))
struct NCMBAddressSpellingTests {
  @Test(arguments: [
    "http://127.1:9099", "http://127.000.000.001:9099", "http://[0:0:0:0:0:0:0:1]:9099",
    "http://[::0001]:9099", "http://[zz]:80", "http://2130706433:9099",
  ])
  func refused(_ text: String) throws {
    let configuration = Fixture.configuration(baseURL: try #require(URL(string: text)))
    let error = try #require(throws: UserBackendError.self) { try configuration.validate() }
    guard case .misconfigured(let setting, _) = error.code else {
      Issue.record("expected misconfigured, got \(error)")
      return
    }
    #expect(setting == "baseURL")
  }

  @Test(arguments: ["http://127.0.0.1:9099", "http://[::1]:9099", "https://mbaas.api.nifcloud.com"])
  func accepted(_ text: String) throws {
    try Fixture.configuration(baseURL: try #require(URL(string: text))).validate()
  }
}
