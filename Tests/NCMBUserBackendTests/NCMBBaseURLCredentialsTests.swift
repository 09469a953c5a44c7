import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// A base URL with a user name or password (`https://user:pass@host`) is refused by the
/// configuration, naming the setting and never quoting the URL: the transport would
/// otherwise refuse every request (or, through another loader, send the credentials as
/// `Authorization: Basic`).
@Suite("NCMB base URL with credentials", .timeLimit(.minutes(1)))
struct NCMBBaseURLCredentialsTests {
  @Test(
    "a base URL carrying a user name or password is misconfigured, unquoted",
    arguments: [
      "https://user:SECRET@mbaas.example", "http://SECRET@127.0.0.1:9099",
      "http://:SECRET@127.0.0.1:9099/",
    ])
  func refused(text: String) throws {
    let url = try #require(URL(string: text))
    let configuration = NCMBConfiguration(applicationKey: "a", clientKey: "k", baseURL: url)
    let error = try #require(throws: UserBackendError.self) {
      try NCMBUserBackend(
        configuration: configuration, transport: StubTransport(),
        sessionStore: InMemorySessionStore())
    }
    guard case .misconfigured(let setting, _) = error.code else {
      Issue.record("expected misconfigured, got \(error.code)")
      return
    }
    #expect(setting == "baseURL")
    #expect(!error.description.contains("SECRET"))
    #expect(URLLoaderSupport.baseURLProblem(url) != nil)
  }
}
