import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Issue 16 item 5 on the NCMB adapter: a redirect answer is a `server` error naming its
/// status, never a success, and the session stays.
@Suite("NCMB: a 3xx answer is a server error", .timeLimit(.minutes(1)))
struct NCMBRedirectTests {
  @Test(
    "delete-account answered 307 fails with server(307) and keeps the session",
    arguments: [301, 302, 307, 308])
  func deleteAccountRedirect(status: Int) async throws {
    let store = Fixture.signedInStore()
    let transport = StubTransport([
      .response(
        HTTPResponse(
          status: status, headerFields: ["Location": "http://evil.example/steal"],
          body: Data()))
    ])
    let backend = try Fixture.backend(transport, store: store)
    await #expect {
      try await backend.deleteAccount()
    } throws: { error in
      guard case .server(let code, _, _) = (error as? UserBackendError)?.code else { return false }
      return code == status
    }
    #expect(try await backend.currentUser() != nil)
  }
}
