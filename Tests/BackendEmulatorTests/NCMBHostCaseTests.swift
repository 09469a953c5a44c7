import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import NCMBSigning
import Testing
import UserBackendKit

/// Host names are case-insensitive and the NCMB service signs its own name in lower case:
/// the emulator checks a signature against the lower-cased `Host`, so a client that
/// signs `localhost` while sending `Host: LOCALHOST` is accepted, and one that signs the
/// upper-case name is refused, as the service would.
@Suite("Emulator NCMB: the signed host is lower case", .timeLimit(.minutes(1)))
struct NCMBHostCaseTests {
  @Test(
    "a request to an upper-case host is checked against the lower-case name",
    arguments: [("localhost", 201), (nil, 201), ("LOCALHOST", 403), ("LocalHost", 403)]
      as [(String?, Int)])
  func hostCase(signed: String?, status: Int) async throws {
    let handler = NCMBHandler(store: try makeStore())
    var requests = NCMBRequests()
    requests.base = "http://LOCALHOST:9099"
    requests.signedFQDN = signed
    let response = await handler.handle(
      requests.request(.post, "/2013-09-01/users", body: ["userName": "u", "password": "secret1"]))
    #expect(response.status == status, "\(signed ?? "nil")")
  }
}
