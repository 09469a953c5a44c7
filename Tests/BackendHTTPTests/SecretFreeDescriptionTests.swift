import AdapterSupport
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@Suite("Transport errors with a secret-free description keep it", .timeLimit(.minutes(2)))
struct SecretFreeDescriptionTests {
  struct Failing: HTTPTransport {
    let error: any Error & Sendable
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw error }
  }

  /// A foreign error that vouches for its description.
  struct Vouched: Error, SecretFreeDescription {
    var description: String { "no recorded interaction for POST /v1/x: body.email differs" }
  }

  /// A foreign error that does not vouch: its description must not be used.
  struct Unvouched: Error, CustomStringConvertible {
    var description: String { "failed https://example.test/v1/x?key=AIzaSECRET" }
  }

  @Test("a SecretFreeDescription error keeps its text; others keep domain and code only")
  func mapping() async throws {
    let request = HTTPRequest(method: .get, url: URL(string: "https://example.test/v1/x")!)
    let vouched = await #expect(throws: UserBackendError.self) {
      _ = try await Failing(error: Vouched()).sendForBackend(request)
    }
    #expect(vouched?.code == .network(reason: Vouched().description))
    let unvouched = await #expect(throws: UserBackendError.self) {
      _ = try await Failing(error: Unvouched()).sendForBackend(request)
    }
    #expect(unvouched.map { !"\($0)".contains("AIza") } == true)
  }
}
