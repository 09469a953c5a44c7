import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// Issue 16 item 5 on the Firebase adapter: a redirect answer is a `server` error naming
/// its status.
@Suite("Firebase: a 3xx answer is a server error", .timeLimit(.minutes(1)))
struct FirebaseRedirectTests {
  @Test("sign-in answered 307 fails with server(307)", arguments: [302, 307, 308])
  func signInRedirect(status: Int) async throws {
    let transport = StubTransport { _ in
      HTTPResponse(status: status, headerFields: ["Location": "http://evil.example/"])
    }
    let backend = try Fixture.backend(transport)
    await #expect {
      _ = try await backend.signIn(.email("alice@example.com", password: "secret123"))
    } throws: { error in
      guard case .server(let code, _, _) = (error as? UserBackendError)?.code else { return false }
      return code == status
    }
  }
}
