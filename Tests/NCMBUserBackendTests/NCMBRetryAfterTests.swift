import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

@Suite("NCMB: Retry-After from the server never crashes", .timeLimit(.minutes(2)))
struct NCMBRetryAfterTests {
  static func signIn(retryAfter: String) async throws -> UserBackendError {
    let transport = StubTransport([
      Fixture.response(
        429, #"{"code":"E429001","error":"API calls have passed their limit."}"#,
        headers: ["Retry-After": retryAfter])
    ])
    let backend = try Fixture.backend(transport)
    return try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
  }

  @Test(
    "a Retry-After that is not a finite, non-negative number is dropped",
    arguments: ["1e300", "inf", "-inf", "nan", "-5", "soon", ""])
  func dropped(_ value: String) async throws {
    let error = try await Self.signIn(retryAfter: value)
    #expect(error.code == .rateLimited(retryAfter: nil))
    #expect(!error.description.isEmpty)
  }

  @Test(
    "a usable Retry-After is kept, clamped to one day",
    arguments: [("30", 30.0), ("0", 0), ("100000000000000000000", 86_400)])
  func kept(_ value: String, _ expected: TimeInterval) async throws {
    let error = try await Self.signIn(retryAfter: value)
    #expect(error.code == .rateLimited(retryAfter: expected))
  }
}
