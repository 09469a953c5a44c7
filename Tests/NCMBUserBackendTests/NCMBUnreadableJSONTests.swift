import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// A sign-in answer that is JSON by the grammar but holds a number no double can (or a
/// member name twice) is named for that, not called "not valid JSON" (the Firebase
/// adapter says the same, LifetimeBoundsTests).
@Suite("NCMB: JSON the decoder cannot hold is named", .timeLimit(.minutes(1)))
struct NCMBUnreadableJSONTests {
  @Test("a number out of range in a login answer")
  func outOfRange() async throws {
    let body = #"{"objectId":"x","userName":"alice","sessionToken":"t","n":1e999}"#
    let backend = try Fixture.backend(StubTransport([Fixture.response(200, body)]))
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signIn(.username("alice", password: "secret1"))
    }
    #expect(error.code.name == "malformedResponse", "\(error)")
    #expect(!error.description.contains("not valid JSON"), "\(error)")
    #expect(error.description.contains("out of range"), "\(error)")
  }
}
